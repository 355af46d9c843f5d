// What kind of file a written path is, by its name: the policies that read written code agree on one
// answer, so a file one of them reads as a test is a test for all of them.

/** Source code in a language a build or a server runs. */
const SOURCE_CODE = /\.(?:m?[jt]sx?|cjs|cts|mts|py|rb|php|go|java|kts?|cs|swift|rs|exs?|scala|dart)$/i;
/** Templates a server renders or a front-end build compiles, which run code and send requests as well. */
const TEMPLATE = /\.(?:liquid|html?|vue|svelte|astro|erb|ejs|hbs|njk|twig|jinja2?|cshtml|razor)$/i;
/** Tests, fixtures and their set-up: code that runs against a test database, never in production. */
const TEST_FILE =
  /(^|\/)(?:tests?|spec|__tests__|fixtures?)\/|[._-](?:test|spec)\.\w+$|(^|\/)test_[^/]*$|(^|\/)conftest\.py$/i;

/** Whether the file is source code (not a template, a config or data). */
export function isSourceCode(file: string): boolean {
  return SOURCE_CODE.test(file);
}

/** Whether the file is source code or a template: what a build or a server runs. */
export function isSourceOrTemplate(file: string): boolean {
  return SOURCE_CODE.test(file) || TEMPLATE.test(file);
}

/** Whether the file is a test, a fixture or a test's set-up, by its folder or its name. */
export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}
