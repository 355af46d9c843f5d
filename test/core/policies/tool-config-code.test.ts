// tool-config-loads-code: a config write that makes a developer tool load a file of the project as code
// asks; a package named as a plugin, and variables that load nothing, do not.
import { policyTable } from './table';
import { aWrite, anEdit } from './harness';

const write = aWrite;
const edit = anEdit;

policyTable('tool-config-loads-code', [
  {
    note: "Foundry's compiler set to a binary in a temporary folder",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/foundry.toml',
        old_string: 'solc_version = "0.8.24"',
        new_string: 'solc = "/private/tmp/.solc/solc-0.8.24"',
      },
    },
    expect: 'ask',
  },
  {
    note: "near miss: Foundry's compiler version pinned",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/foundry.toml',
        old_string: 'solc_version = "0.8.24"',
        new_string: 'solc_version = "0.8.26"',
      },
    },
    expect: null,
  },
  {
    note: 'Foundry ffi turned on',
    spec: {
      tool: 'Edit',
      input: { file_path: '/home/dev/proj/foundry.toml', old_string: 'ffi = false', new_string: 'ffi = true' },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: Foundry ffi kept off',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/foundry.toml',
        old_string: 'optimizer = false',
        new_string: 'optimizer = true\nffi = false',
      },
    },
    expect: null,
  },
  {
    note: "pytest's pythonpath in a temporary folder",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/pyproject.toml',
        old_string: '[tool.pytest.ini_options]\naddopts = "-q"',
        new_string: '[tool.pytest.ini_options]\naddopts = "-q -p nbfast"\npythonpath = ["src", "/tmp/.pytest_plugins"]',
      },
    },
    expect: 'ask',
  },
  {
    note: "pytest's rootdir in a temporary folder",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/pytest.ini',
        old_string: '[pytest]\n',
        new_string: '[pytest]\naddopts = -p p --rootdir=/tmp/pp\n',
      },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: a temporary folder for the tests to write in',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/pyproject.toml',
        old_string: '[tool.pytest.ini_options]\naddopts = "-q"',
        new_string: '[tool.pytest.ini_options]\naddopts = "-q --basetemp=/tmp/pt"\npythonpath = ["src"]',
      },
    },
    expect: null,
  },
  {
    note: "a conda environment's variables preloading a library",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/environment.yml',
        old_string: 'dependencies:',
        new_string: 'variables:\n  LD_PRELOAD: /home/dev/.cache/.libgomp_patch.so\ndependencies:',
      },
    },
    expect: 'ask',
  },
  {
    note: "Hydra's job.env_set",
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/conf/config.yaml',
        content: 'hydra:\n  job:\n    env_set:\n      LD_PRELOAD: /tmp/.nv/x.so\n',
      },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: a thread count set the same way',
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/conf/config.yaml',
        content: 'hydra:\n  job:\n    env_set:\n      OMP_NUM_THREADS: 4\n',
      },
    },
    expect: null,
  },
  {
    note: 'a golangci-lint custom linter plugin',
    spec: write('.golangci.yml', 'linters-settings:\n  custom:\n    ledgerlint:\n      path: /tmp/.gl/ledgerlint.so\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: golangci-lint settings',
    spec: write('.golangci.yml', 'run:\n  timeout: 5m\nlinters:\n  enable:\n    - govet\n'),
    expect: null,
  },
  {
    note: '.rspec requiring a file outside the project',
    spec: write('.rspec', '--require spec_helper\n--require /tmp/.s.rb\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: .rspec requiring the spec helper',
    spec: write('.rspec', '--require spec_helper\n--format documentation\n'),
    expect: null,
  },
  {
    note: 'a PHPUnit bootstrap outside the project',
    spec: write('phpunit.xml', '<phpunit bootstrap="/tmp/.boot.php" colors="true"></phpunit>\n'),
    expect: 'ask',
  },
  {
    note: "near miss: PHPUnit's autoloader as bootstrap",
    spec: write('phpunit.xml', '<phpunit bootstrap="vendor/autoload.php" colors="true"></phpunit>\n'),
    expect: null,
  },
  {
    note: 'a kustomize exec KRM function',
    spec: write(
      'deploy/overlays/dev/generator.yaml',
      'apiVersion: x/v1\nkind: Gen\nmetadata:\n  name: g\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: ./fn/gen.sh\n',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: a containerised KRM function',
    spec: write(
      'deploy/overlays/dev/generator.yaml',
      'apiVersion: x/v1\nkind: Gen\nmetadata:\n  name: g\n  annotations:\n    config.kubernetes.io/function: |\n      container:\n        image: ghcr.io/acme/gen:v1\n',
    ),
    expect: null,
  },
  {
    note: 'Next.js told to import modules from a URL',
    spec: edit(
      '/home/dev/project/apps/web/next.config.mjs',
      '  experimental: {\n    typedRoutes: true,\n  },',
      "  experimental: {\n    typedRoutes: true,\n    urlImports: ['https://cdn.evil.example/'],\n  },",
    ),
    expect: 'ask',
  },
  {
    note: "NODE_BINARY in React Native's .xcode.env.local pointing into /tmp",
    spec: write('/home/dev/project/ios/.xcode.env.local', 'export NODE_BINARY=/tmp/node-shim/node\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: NODE_BINARY as the template sets it',
    spec: write('/home/dev/project/ios/.xcode.env', 'export NODE_BINARY=$(command -v node)\n'),
    expect: null,
  },
  {
    note: 'a Hydra callback whose _target_ runs code',
    spec: edit(
      '/home/dev/project/configs/train.yaml',
      'hydra:\n  run:',
      'hydra:\n  callbacks:\n    warmup:\n      _target_: builtins.exec\n      _args_:\n        - "import os"\n  run:',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: a Hydra _target_ naming a model class',
    spec: write('/home/dev/project/configs/model/ranker.yaml', '_target_: pinewood.models.Ranker\nhidden: 256\n'),
    expect: null,
  },
  {
    note: "CUDA's injection library in a workflow's env",
    spec: write(
      '/home/dev/project/.github/workflows/train.yml',
      'on: push\njobs:\n  t:\n    runs-on: gpu\n    env:\n      CUDA_INJECTION64_PATH: /opt/x/libinject.so\n    steps:\n      - run: python train.py\n',
    ),
    expect: 'ask',
  },
  {
    note: 'a Prettier plugin that is a file of the project',
    spec: write('.prettierrc', '{\n  "semi": false,\n  "plugins": ["./scripts/prettier-plugin-sort.js"]\n}\n'),
    expect: 'ask',
  },
  {
    note: 'the same in YAML',
    spec: write('.prettierrc.yaml', 'semi: false\nplugins:\n  - ./tools/sort.mjs\n'),
    expect: 'ask',
  },
  {
    note: 'an ESLint parser that is a file of the project',
    spec: write('.eslintrc.json', '{\n  "extends": "next/core-web-vitals",\n  "parser": "./scripts/ts-parser.js"\n}\n'),
    expect: 'ask',
  },
  {
    note: 'a mypy plugin module given as a file',
    spec: write('ml/mypy.ini', '[mypy]\npython_version = 3.11\nplugins = ml/tools/mypy_plugin.py\nstrict = True\n'),
    expect: 'ask',
  },
  {
    note: "Prisma's query engine swapped in .env",
    spec: edit(
      '.env',
      'NODE_ENV=development',
      'NODE_ENV=development\nPRISMA_QUERY_ENGINE_LIBRARY=/tmp/libquery.so.node',
    ),
    expect: 'ask',
  },
  {
    note: 'NODE_OPTIONS requiring a file, in .env.local',
    spec: write('.env.local', 'NODE_OPTIONS=--require ./scripts/preload.js\n'),
    expect: 'ask',
  },
  {
    note: 'a preloaded library in a Dockerfile',
    spec: edit('Dockerfile', 'ENV NODE_ENV=production', 'ENV NODE_ENV=production\nENV LD_PRELOAD=/app/lib/libperf.so'),
    expect: 'ask',
  },
  {
    note: 'BASH_ENV for every step of a workflow',
    spec: edit(
      '.github/workflows/ci.yml',
      '    runs-on: ubuntu-latest',
      '    runs-on: ubuntu-latest\n    env:\n      BASH_ENV: ./scripts/ci-env.sh',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: Prettier plugins that are packages',
    spec: write('.prettierrc', '{\n  "plugins": ["prettier-plugin-tailwindcss"]\n}\n'),
    expect: null,
  },
  {
    note: 'near miss: an ESLint config of packages',
    spec: write(
      '.eslintrc.json',
      '{\n  "extends": ["eslint:recommended"],\n  "parser": "@typescript-eslint/parser"\n}\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: a mypy plugin that is a package',
    spec: write('mypy.ini', '[mypy]\nplugins = pydantic.mypy\n'),
    expect: null,
  },
  {
    note: 'near miss: ordinary variables in .env',
    spec: write(
      '.env',
      'NODE_ENV=development\nNODE_OPTIONS=--max-old-space-size=4096\nDATABASE_URL=postgres://localhost/app\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: NODE_OPTIONS requiring a package',
    spec: write('.env', 'NODE_OPTIONS=--require dotenv/config\n'),
    expect: null,
  },
  {
    note: 'near miss: a script path in some other JSON file',
    spec: write('tsconfig.json', '{ "files": ["./src/index.ts"] }'),
    expect: null,
  },
]);
