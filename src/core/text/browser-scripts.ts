// Browser-automation MCP servers (Puppeteer, Playwright, a Chrome driver) run JavaScript handed to
// them inside the page they drive, with that page's logged-in session: its cookies, its storage, and
// its right to call the site's API as the person. The script is read as code, as a `node -e` script
// is, so what it fetches, sends or decodes and runs is judged like any other code's.

const BROWSER_SERVER = /puppeteer|playwright|browser|chrome|chromium|selenium|webdriver/i;
const SCRIPT_TOOL = /evaluate|eval|script|javascript|run_?js|execute/i;
const SCRIPT_KEYS = ['function', 'script', 'expression', 'code', 'js', 'javascript', 'pageFunction'];
/** What a page script reads of the person's session. */
const SESSION_STORE = /\bdocument\.cookie\b|\b(?:local|session)Storage\b|\bindexedDB\b/;

/** The JavaScript a browser-automation tool would run in its page, and the argument it came in. */
export function browserScriptOf(
  toolName: string,
  input: Record<string, unknown>,
): { key: string; script: string } | undefined {
  const [prefix, server, ...rest] = toolName.split('__');
  if (prefix !== 'mcp' || !server || !BROWSER_SERVER.test(server) || !SCRIPT_TOOL.test(rest.join('__')))
    return undefined;
  for (const key of SCRIPT_KEYS) {
    const value = input[key];
    if (typeof value === 'string' && value.trim() !== '') return { key, script: value };
  }
  return undefined;
}

/** The session store a page script reads (`document.cookie`, `localStorage`), if it reads one. */
export function sessionStoreRead(script: string): string | undefined {
  return SESSION_STORE.exec(script)?.[0];
}
