// build-hook-outside-project: a build or test config naming a hook module by a path outside the project
// asks; hooks kept in the project, relative paths and a hook the file already named pass.
import { policyTable } from './table';
import { aWrite, anEdit, ROOT } from './harness';

policyTable('build-hook-outside-project', [
  {
    note: "electron-builder's afterSign from Downloads, in a written config",
    spec: aWrite(
      'electron-builder.json',
      '{\n  "appId": "dev.relay.app",\n  "afterSign": "/home/dev/Downloads/notarize.cjs"\n}\n',
    ),
    expect: 'ask',
  },
  {
    note: "Jest's setup files from home, by ~",
    spec: anEdit(
      'jest.config.js',
      "  setupFiles: ['./jest.setup.js'],\n",
      "  setupFiles: ['~/.cache/jest/setup.js'],\n",
    ),
    expect: 'ask',
  },
  {
    note: 'a hook set by yq -i',
    spec: 'yq -i \'.beforeBuild = "/tmp/prebuild.cjs"\' electron-builder.yml',
    expect: 'ask',
  },
  {
    note: 'near miss: a relative hook in the project',
    spec: aWrite('electron-builder.json', '{\n  "afterSign": "build/hooks/after-sign.cjs"\n}\n'),
    expect: null,
  },
  {
    note: 'near miss: an absolute path inside the project',
    spec: anEdit(
      'vitest.config.ts',
      "    globalSetup: './setup.ts',\n",
      `    globalSetup: '${ROOT}/tests/setup.ts',\n`,
    ),
    expect: null,
  },
  {
    note: 'near miss: a hook the file already named, left as it was',
    spec: anEdit(
      'electron-builder.yml',
      'afterSign: /opt/ci/notarize.cjs\n',
      'afterSign: /opt/ci/notarize.cjs\nartifactName: ${productName}-${version}.${ext}\n',
    ),
    expect: null,
  },
]);
