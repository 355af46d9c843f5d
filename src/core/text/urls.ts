// Web addresses written into prose: Gemini's web_fetch takes no URL parameter, only a prompt that
// names up to twenty URLs, and fetches each of them.

/** A URL's scheme and `//` at the start of a word (`https://`, `s3://`, `git+ssh://`). */
const SCHEME_PREFIX = /^[a-z][\w+.-]*:\/\//i;

/** The word is a URL written with its scheme; a path or an address (`a/b`, `x@h`) is not. */
export function hasUrlScheme(word: string): boolean {
  return SCHEME_PREFIX.test(word);
}

/** The word is a URL that names a place on the network: any scheme but file://. */
export function isRemoteUrl(word: string): boolean {
  return hasUrlScheme(word) && !/^file:/i.test(word);
}

/** An http or https URL up to the first space, quote, bracket or angle bracket. */
const HTTP_URL = /https?:\/\/[^\s'"`<>()[\]{}\\]+/gi;
/** Sentence punctuation that follows a URL in prose rather than belonging to it. */
const TRAILING_PUNCTUATION = '.,;:!?';
const MAX_URLS = 20;

/** The http(s) URLs a text names, in order, without the punctuation that ends a sentence after one. */
export function urlsInText(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(HTTP_URL)) {
    let url = match[0];
    while (url.length > 0 && TRAILING_PUNCTUATION.includes(url[url.length - 1]!)) url = url.slice(0, -1);
    if (url.length > 'https://'.length && !found.includes(url)) found.push(url);
    if (found.length >= MAX_URLS) break;
  }
  return found;
}
