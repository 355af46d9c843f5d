import { policyTable } from './table';

policyTable('wp-cli-live-site-change', [
  { note: "the live shop's database reset", spec: 'wp @production db reset --yes', expect: 'ask' },
  { note: 'a staging dump over production', spec: 'wp @production db import backups/staging.sql', expect: 'ask' },
  { note: 'near miss: the same on the local site', spec: 'ddev wp db import backups/staging.sql', expect: null },
  {
    note: 'every order deleted on production',
    spec: 'wp @production post delete $(wp @production post list --post_type=shop_order --format=ids) --force',
    expect: 'ask',
  },
  {
    note: 'a URL rewrite of every table on production',
    spec: "wp @production search-replace 'https://shop-client.example.com' 'https://shop.ddev.site' --all-tables",
    expect: 'ask',
  },
  {
    note: 'near miss: the same as a dry run',
    spec: "wp @production search-replace 'http://shop-client.example.com' 'https://shop-client.example.com' --dry-run",
    expect: null,
  },
  { note: "the admin's e-mail moved", spec: 'wp @live user update 1 --user_email=admin@evil.example', expect: 'ask' },
  { note: 'a plugin uninstalled on every site', spec: 'wp @all plugin uninstall woocommerce', expect: 'ask' },
  { note: 'over ssh to the live host', spec: 'wp --ssh=deploy@shop-client.example.com db reset --yes', expect: 'ask' },
  {
    note: 'a login named dev on the live host',
    spec: 'wp --ssh=dev@shop-client.example.com db reset --yes',
    expect: 'ask',
  },
  {
    note: 'near miss: over ssh to staging',
    spec: 'wp --ssh=deploy@staging.shop.agency.internal db reset --yes',
    expect: null,
  },
  {
    note: 'a writing query',
    spec: `wp @production db query "DELETE FROM wp_posts WHERE post_type='shop_order'"`,
    expect: 'ask',
  },
  {
    note: 'near miss: a reading query',
    spec: `wp @production db query "SELECT COUNT(*) FROM wp_posts WHERE post_type='shop_order'"`,
    expect: null,
  },
  {
    note: 'near miss: a count of customers',
    spec: 'wp @production user list --role=customer --format=count',
    expect: null,
  },
  { note: 'near miss: plugin versions', spec: 'wp @production plugin list --fields=name,version', expect: null },
  { note: 'near miss: a staging cache flush', spec: 'wp @staging cache flush', expect: null },
]);
