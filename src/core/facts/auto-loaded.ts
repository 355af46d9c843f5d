import { GIT_HOOK_FILE } from './git-hook-files';
import { withForwardSlashes } from '../shell/paths';
import { PYTHON_STARTUP } from './project-runs';

// Files a tool or runtime loads and runs by itself, with no command naming them: whatever lands there
// runs the next time that tool starts, tests or serves a request. Text written there by a Write or an
// Edit is read as code when it is written (written-runs); a download's text is not known then, so the
// download itself is the moment to ask.

/** A Python module under Airflow's plugins or DAGs folder, at any depth. */
function airflowModule(file: string): boolean {
  return (
    file.endsWith('.py') && ['airflow/plugins/', 'airflow/dags/'].some((folder) => `/${file}`.includes(`/${folder}`))
  );
}

// Read by path segments rather than a pattern: `(^|/)node_modules/…/.+\.js$` tried from every `/` is quadratic.

/** A module of a package under node_modules (`wrangler/wrangler-dist/cli.js`), or a command of node_modules/.bin. */
function installedNodeCode(file: string): boolean {
  const parts = file.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return false;
  const rest = parts.slice(at + 1);
  if (rest[0] === '.bin') return rest.length === 2;
  if (rest[0] === undefined || rest[0] === '' || rest[0].startsWith('.')) return false;
  const packageDepth = rest[0].startsWith('@') ? 2 : 1;
  return rest.length > packageDepth && /\.([cm]?js|node)$/.test(rest[rest.length - 1] ?? '');
}

/** A module of an installed Python package. */
function installedPythonCode(file: string): boolean {
  return file.endsWith('.py') && file.split('/').some((part) => part === 'site-packages' || part === 'dist-packages');
}

/** A PHP file of a package Composer installed (`vendor/<vendor>/<package>/…`). */
function composerVendorCode(file: string): boolean {
  const parts = file.split('/');
  return file.endsWith('.php') && parts.some((part, index) => part === 'vendor' && parts.length - index >= 4);
}

const AUTO_LOADED: readonly { file: RegExp | ((file: string) => boolean); by: string }[] = [
  { file: /(^|\/)mu-plugins\/[^/]+\.php$/, by: 'WordPress runs it as a must-use plugin on every request' },
  {
    file: /(^|\/)(wp-content|web\/app)\/(object-cache|advanced-cache|db|sunrise)\.php$/,
    by: 'WordPress runs it as a drop-in on every request',
  },
  {
    file: airflowModule,
    by: 'Airflow imports it, running its top-level code, at every parse',
  },
  { file: /\.pth$/, by: 'Python runs its import lines at every start-up of that environment' },
  { file: PYTHON_STARTUP, by: 'Python runs it at every start-up' },
  { file: /(^|\/)conftest\.py$/, by: 'pytest runs it on every test run' },
  { file: /(^|\/)\.ipython\/profile_[^/]+\/startup\/[^/]+$/, by: 'IPython runs it at every start' },
  { file: /(^|\/)\.(irbrc|pryrc)$/, by: 'irb and pry run it at every console start' },
  { file: /(^|\/)\.iex\.exs$/, by: 'iex runs it at every console start' },
  { file: /(^|\/)(mix\.exs|rebar\.config(\.script)?)$/, by: 'mix or rebar3 runs it on every build' },
  { file: /(^|\/)Tiltfile$/, by: 'Tilt runs it at every tilt up' },
  { file: /(^|\/)\.envrc$/, by: 'direnv runs it on entering the folder' },
  { file: /(^|\/)\.((bash_|zsh)?(profile|login|logout)|(bash|zsh)rc|zshenv)$/, by: 'the shell runs it at every start' },
  { file: GIT_HOOK_FILE, by: 'git runs it on commit, push or checkout' },
  { file: /(^|\/)\.gradle\/init\.d\/[^/]+$/, by: 'Gradle runs it on every build' },
  // Build and test entry points: the project's own build, test or install runs them without naming them.
  { file: /(^|\/)(GNUmakefile|makefile|Makefile)$/, by: 'make reads it on every build' },
  {
    file: /(^|\/)((build|settings)\.gradle(\.kts)?|init\.gradle(\.kts)?|gradlew|mvnw)$/,
    by: 'Gradle or Maven runs it on every build',
  },
  {
    file: /(^|\/)(gradle\/wrapper\/gradle-wrapper|\.mvn\/wrapper\/maven-wrapper)\.jar$/,
    by: 'the wrapper script runs it on every build',
  },
  { file: /(^|\/)pom\.xml$/, by: 'Maven runs its plugins on every build' },
  { file: /(^|\/)package\.json$/, by: 'npm runs its scripts on install, test and build' },
  { file: /(^|\/)(setup\.py|noxfile\.py|build\.rs|CMakeLists\.txt)$/, by: 'the build or install runs it' },
  { file: /(^|\/)Rakefile$/, by: 'rake runs it for every task' },
  { file: /(^|\/)Gemfile$/, by: 'Bundler runs it as Ruby on every install and start' },
  { file: /(^|\/)Procfile$/, by: 'the process manager runs its commands at every start' },
  { file: /(^|\/)(spec\/(spec|rails)_helper|test\/test_helper)\.rb$/, by: 'every test run loads it' },
  { file: /(^|\/)config\/initializers\/[^/]+\.rb$/, by: 'Rails runs it at every boot' },
  {
    file: /(^|\/)([\w-]+\.config|\.(eslintrc|babelrc|mocharc|prettierrc))\.[cm]?[jt]s$/,
    by: 'the build, lint or test tools load it as code',
  },
  {
    file: /(^|\/)(\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|Jenkinsfile|\.circleci\/config\.ya?ml)$/,
    by: 'CI runs it on every push',
  },
  // PHP's refactoring and style tools include their config file as PHP on every run.
  {
    file: /(^|\/)(rector|ecs|\.php-cs-fixer(\.dist)?|\.php_cs(\.dist)?)\.php$/,
    by: 'Rector or the style fixer includes it as PHP on every run',
  },
  { file: /(^|\/)\.pre-commit-config\.ya?ml$/, by: 'pre-commit runs its hooks on every commit' },
  { file: /(^|\/)\.(vscode|vscode-server|cursor)\/extensions\//, by: 'the editor loads it at start' },
  // An installed package's own code: whatever imports the package, or runs its command, runs it.
  { file: installedNodeCode, by: 'Node runs it whenever the installed package is imported or its command runs' },
  { file: installedPythonCode, by: 'Python runs it whenever the installed package is imported' },
  { file: composerVendorCode, by: "Composer's autoloader loads it for every request and command" },
];

/** Who runs this file by itself and when, as a clause, or undefined when nothing loads it unasked. */
export function autoLoadedBy(path: string): string | undefined {
  const file = withForwardSlashes(path);
  return AUTO_LOADED.find((entry) => (typeof entry.file === 'function' ? entry.file(file) : entry.file.test(file)))?.by;
}
