// Conda channels: one given by name is an account on the public channel host, where anyone can open one;
// one given by URL is any host at all. The channels that projects' own install instructions name are known.

const KNOWN_CHANNELS = new Set([
  'conda-forge',
  'defaults',
  'main',
  'r',
  'msys2',
  'bioconda',
  'pytorch',
  'pytorch-nightly',
  'nvidia',
  'rapidsai',
  'rapidsai-nightly',
  'pyg',
  'huggingface',
  'fastai',
  'intel',
  'anaconda',
  'nodefaults',
]);

/** Whether a channel (a name, or a URL) is one of the well-known public channels. */
export function isKnownCondaChannel(channel: string): boolean {
  const value = channel.trim().replace(/^["']|["']$/g, '');
  // `conda-forge/label/dev` is a label of that channel.
  const name = value.split('/')[0] ?? '';
  return !/^[a-z]+:/i.test(value) && KNOWN_CHANNELS.has(name.toLowerCase());
}

/** The channels an environment file lists under `channels:`. */
export function environmentChannels(text: string): string[] {
  const channels: string[] = [];
  let inChannels = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inChannels = /^channels[ \t]*:/.test(line);
    else if (inChannels) {
      const entry = /^[ \t]+-[ \t]+(\S+)/.exec(line)?.[1];
      if (entry !== undefined && !entry.startsWith('#')) channels.push(entry);
    }
  }
  return channels;
}
