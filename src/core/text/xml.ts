// XML attribute and element text as the program reading the file sees it.

const ENTITY = /&(quot|apos|lt|gt|amp|#10|#13|#x0A|#xA);/g;
const ENTITIES: Record<string, string> = {
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  amp: '&',
  // Line breaks written as character references (JetBrains keeps multi-line scripts so).
  '#10': '\n',
  '#x0A': '\n',
  '#xA': '\n',
  '#13': '',
};

/** The text with XML's named entities and line-break references replaced. */
export function xmlText(text: string): string {
  return text.replace(ENTITY, (entity, name: string) => ENTITIES[name] ?? entity);
}
