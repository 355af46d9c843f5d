// Bundles the panel UI (media/src) for the browser into dist/webview, and
// writes the JSON schema of the Warden config files from the zod schema.
// scripts/build.mjs imports this after the product bundles.
import { build } from 'esbuild';
import * as prettier from 'prettier';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'webview');
mkdirSync(outDir, { recursive: true });

// The panel imports only the protocol module (types and pure text helpers):
// no zod, no Node, no core code. The build fails if anything else got in.
const WEBVIEW_MAY_IMPORT = [/^media\/src\//, /^src\/protocol\//];
const webview = await build({
  entryPoints: [join(root, 'media/src/main.ts')],
  outfile: join(outDir, 'panel.js'),
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome114'],
  minify: true,
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
  absWorkingDir: root,
});
const strays = Object.keys(webview.metafile.inputs).filter((input) => !WEBVIEW_MAY_IMPORT.some((ok) => ok.test(input)));
if (strays.length)
  throw new Error(`the panel bundle may import only media/src and src/protocol; it pulled in: ${strays.join(', ')}`);
copyFileSync(join(root, 'media/src/panel.css'), join(outDir, 'panel.css'));

// The config files' JSON schema, for editors (package.json contributes it through jsonValidation).
const schemaBundle = join(root, 'out', 'build-media', 'config-schema.cjs');
await build({
  entryPoints: [join(root, 'src/core/config/schema.ts')],
  outfile: schemaBundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  logLevel: 'warning',
  absWorkingDir: root,
});
const { createRequire } = await import('node:module');
const { configSchema } = createRequire(import.meta.url)(schemaBundle);
const { z } = await import('zod');
const jsonSchema = z.toJSONSchema(configSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' });
jsonSchema.title = 'Agent Warden configuration';
jsonSchema.description =
  'Policies, tool faces, redaction, the semantic tier, approvals and failure handling (.agent-warden/config.json and config.local.json).';
mkdirSync(join(root, 'schemas'), { recursive: true });
// Written as Prettier writes it, so generating the file and `npm run format:check` agree.
const schemaPath = join(root, 'schemas', 'config.schema.json');
const prettierOptions = { ...(await prettier.resolveConfig(schemaPath)), filepath: schemaPath };
writeFileSync(schemaPath, await prettier.format(JSON.stringify(jsonSchema, null, 2), prettierOptions));
