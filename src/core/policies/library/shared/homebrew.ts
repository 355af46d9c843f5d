// Homebrew runs a formula's Ruby as it installs it. Its own taps (homebrew/core, homebrew/cask) are
// reviewed; a third party's tap is whatever its owner pushed. The vendors below publish their own
// tools that way, as their install guides say; any other owner's tap is asked about.
const KNOWN_TAP_OWNERS = new Set([
  ...['homebrew', 'hashicorp', 'stripe', 'supabase', 'mongodb', 'aws', 'azure', 'heroku', 'github'],
  ...['cloudflare', 'planetscale', 'oven-sh', 'denoland', 'goreleaser', 'pulumi', 'superfly', 'fluxcd'],
  ...['bufbuild', 'derailed', 'withgraphite', 'auth0', 'datadog', 'grafana', 'temporalio', 'tursodatabase'],
  ...['fastlane', 'facebook', 'wix', 'expo', 'microsoft', 'google', 'jetbrains', 'docker', 'twilio'],
]);

export function isKnownTapOwner(owner: string): boolean {
  return KNOWN_TAP_OWNERS.has(owner.toLowerCase());
}

/** The tap a brew word names (`owner/tap/formula`, or `owner/tap` for `brew tap`), when its owner is not known. */
export function thirdPartyTap(word: string, tapCommand: boolean): string | undefined {
  const parts = word.split('/');
  if (parts.length !== (tapCommand ? 2 : 3) || parts.some((part) => !/^[\w.+@-]+$/.test(part))) return undefined;
  return isKnownTapOwner(parts[0]!) ? undefined : `${parts[0]}/${parts[1]}`;
}

/** Whether a Brewfile taps, or installs from, a third party's tap (`tap "owner/tap"`, `brew "owner/tap/x"`). */
export function brewfileHasThirdPartyTap(content: string): boolean {
  for (const m of content.matchAll(/^[ \t]*(tap|brew|cask)[ \t]+["']([^"'\r\n]+)["']/gm))
    if (thirdPartyTap(m[2]!, m[1] === 'tap') !== undefined) return true;
  return false;
}
