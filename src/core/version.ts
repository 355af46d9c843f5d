// Replaced at build time from package.json (esbuild define); the fallback serves unbundled tests.
declare const __AGENT_WARDEN_VERSION__: string | undefined;
export const VERSION: string = typeof __AGENT_WARDEN_VERSION__ === 'string' ? __AGENT_WARDEN_VERSION__ : '0.0.0-dev';
