// The panel's HTML shell, the same for the webview and the standalone
// server's page. Only the host-chosen URIs, nonce and CSP source go in here,
// never anything from an agent; they are still escaped as attributes.

export interface PanelHtmlOptions {
  scriptUri: string;
  styleUri: string;
  /** A fresh crypto-random value per page load. */
  nonce: string;
  /** The webview's cspSource, or 'self' on the web page. */
  cspSource: string;
  transport: 'vscode' | 'web';
  rowLimit?: number;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function panelCsp(opts: Pick<PanelHtmlOptions, 'nonce' | 'cspSource' | 'transport'>): string {
  const source = opts.cspSource === 'self' ? "'self'" : opts.cspSource;
  const connect = opts.transport === 'web' ? "'self'" : "'none'";
  return [
    `default-src 'none'`,
    `script-src 'nonce-${opts.nonce}'`,
    `style-src ${source}`,
    `font-src ${source}`,
    `img-src ${source} data:`,
    `connect-src ${connect}`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

export function renderPanelHtml(opts: PanelHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(opts.nonce)) throw new Error('the nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(panelCsp(opts))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${attr(opts.styleUri)}">
<link rel="icon" href="data:,">
<title>Agent Warden</title>
</head>
<body data-transport="${opts.transport}" data-row-limit="${opts.rowLimit ?? 10000}" class="transport-${opts.transport}">
<header id="status"></header>
<div id="summary"></div>
<div id="toolbar"></div>
<div id="timeline" hidden></div>
<div id="policies"></div>
<main>
<section id="cards" aria-label="asks waiting for you" aria-live="polite"></section>
<div id="empty" hidden></div>
<div id="list" role="listbox" tabindex="0" aria-label="calls, newest first"><div id="spacer" role="presentation"></div></div>
<div id="detail" hidden></div>
</main>
<div id="toast" role="status" aria-live="polite" hidden></div>
<script nonce="${attr(opts.nonce)}" src="${attr(opts.scriptUri)}"></script>
</body>
</html>
`;
}
