// electron-protection-off: a write that turns off a window's isolation or sandbox, gives it Node, or flips
// a packaged app's fuses open asks; the same settings kept, turned on, or outside Electron pass.
import { policyTable } from './table';
import { aWrite, anEdit } from './harness';

const WINDOW = '  const win = new BrowserWindow({\n    width: 1200,\n    webPreferences: {\n      preload,\n';

policyTable('electron-protection-off', [
  {
    note: "a window's isolation and sandbox turned off, Node given to it",
    spec: anEdit(
      'app/src/main/window.ts',
      `${WINDOW}      contextIsolation: true,\n      sandbox: true,\n`,
      `${WINDOW}      contextIsolation: false,\n      sandbox: false,\n      nodeIntegration: true,\n`,
    ),
    expect: 'ask',
  },
  {
    note: "a packaged app's fuses flipped by yq",
    spec: "yq -i '.electronFuses.runAsNode = true | .electronFuses.onlyLoadAppFromAsar = false' electron-builder.yml",
    expect: 'ask',
  },
  {
    note: 'a fuse flipped in a forge config',
    spec: aWrite(
      'forge.config.js',
      "const { FuseV1Options } = require('@electron/fuses');\nmodule.exports = { plugins: [new FusesPlugin({ [FuseV1Options.RunAsNode]: true })] };\n",
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: the protections kept while the window grows',
    spec: anEdit(
      'app/src/main/window.ts',
      `${WINDOW}      contextIsolation: true,\n`,
      `${WINDOW.replace('1200', '1400')}      contextIsolation: true,\n`,
    ),
    expect: null,
  },
  {
    note: 'near miss: a setting that was already off, left as it was',
    spec: anEdit(
      'app/src/main/devtools-window.ts',
      `${WINDOW}      sandbox: false,\n`,
      `${WINDOW}      sandbox: false,\n      spellcheck: true,\n`,
    ),
    expect: null,
  },
  {
    note: "near miss: a payment provider's live mode (sandbox: false) outside Electron",
    spec: aWrite('worker/src/payments.ts', 'export const paypal = { sandbox: false, clientId: env.PAYPAL_ID };\n'),
    expect: null,
  },
]);
