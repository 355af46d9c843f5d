// A service opened to anyone without a login: Grafana's anonymous access as Admin or Editor, a Jupyter
// server on every interface with neither token nor password, a debugger taking connections on every
// interface. Anonymous viewers, a Jupyter server or a debugger bound to this machine, pass.
import { policyTable } from './table';
import { anEdit } from './harness';

const edit = anEdit;

policyTable('login-turned-off', [
  {
    note: "Node's inspector on every interface",
    spec: 'node --inspect=0.0.0.0:9229 node_modules/next/dist/bin/next dev -H 0.0.0.0',
    expect: 'ask',
  },
  { note: 'the same through NODE_OPTIONS', spec: "NODE_OPTIONS='--inspect-brk=0.0.0.0' npm run dev", expect: 'ask' },
  { note: 'near miss: the inspector on this machine', spec: 'node --inspect=127.0.0.1:9229 server.js', expect: null },
  { note: 'near miss: the inspector on its default', spec: 'node --inspect server.js', expect: null },
  {
    note: 'debugpy listening on every interface',
    spec: 'python -m debugpy --listen 0.0.0.0:5678 --wait-for-client -m uvicorn app.main:app',
    expect: 'ask',
  },
  { note: 'near miss: debugpy on localhost', spec: 'python3 -m debugpy --listen 5678 app.py', expect: null },
  {
    note: 'near miss: debugpy inside a compose service, reached through its published port',
    spec: {
      tool: 'Write',
      input: {
        file_path: 'docker-compose.override.yml',
        content:
          'services:\n  api:\n    ports:\n      - "5678:5678"\n    command: python -m debugpy --listen 0.0.0.0:5678 -m uvicorn app.main:app\n',
      },
    },
    expect: null,
  },
  {
    note: "the JVM's debugger on every interface",
    spec: 'java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=*:5005 -jar app.jar',
    expect: 'ask',
  },
  {
    note: "near miss: the JVM's debugger on this machine",
    spec: 'java -agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:5005 -jar app.jar',
    expect: null,
  },
  {
    note: "WebKit's inspector of a Tauri app's web view on every interface",
    spec: 'WEBKIT_INSPECTOR_SERVER=0.0.0.0:9222 pnpm tauri dev',
    expect: 'ask',
  },
  {
    note: 'the same exported first',
    spec: 'export WEBKIT_INSPECTOR_HTTP_SERVER=0.0.0.0:9223 && cargo tauri dev',
    expect: 'ask',
  },
  {
    note: "near miss: WebKit's inspector on this machine",
    spec: 'WEBKIT_INSPECTOR_SERVER=127.0.0.1:9222 pnpm tauri dev',
    expect: null,
  },
  {
    note: "a headless browser's DevTools protocol on every interface",
    spec: 'chromium --headless=new --remote-debugging-address=0.0.0.0 --remote-debugging-port=9222 http://localhost:5173',
    expect: 'ask',
  },
  {
    note: 'near miss: DevTools on its default, this machine',
    spec: 'chromium --headless=new --remote-debugging-port=9222 http://localhost:5173',
    expect: null,
  },
  {
    note: 'Grafana helm values: anonymous access as Admin',
    spec: edit(
      'helm/values/prod/grafana.yaml',
      'grafana.ini:\n  auth.anonymous:\n    enabled: false\n',
      'grafana.ini:\n  auth.anonymous:\n    enabled: true\n    org_role: Admin\n',
    ),
    expect: 'ask',
  },
  {
    note: "grafana.ini's own section, Editor",
    spec: {
      tool: 'Write',
      input: { file_path: 'grafana/grafana.ini', content: '[auth.anonymous]\nenabled = true\norg_role = Editor\n' },
    },
    expect: 'ask',
  },
  {
    note: 'compose environment variables',
    spec: {
      tool: 'Write',
      input: {
        file_path: 'docker-compose.yml',
        content:
          'services:\n  grafana:\n    image: grafana/grafana:11.1.0\n    environment:\n      GF_AUTH_ANONYMOUS_ENABLED: "true"\n      GF_AUTH_ANONYMOUS_ORG_ROLE: Admin\n',
      },
    },
    expect: 'ask',
  },
  {
    note: 'Jupyter on every interface with no token or password, started over ssh',
    spec: `ssh gpu-box 'nohup jupyter lab --ip 0.0.0.0 --port 8888 --ServerApp.token="" --ServerApp.password="" > /dev/null 2>&1 &'`,
    expect: 'ask',
  },
  {
    note: 'near miss: anonymous viewers of a public dashboard',
    spec: edit(
      'helm/values/grafana.yaml',
      'auth.anonymous:\n  enabled: false\n',
      'auth.anonymous:\n  enabled: true\n  org_name: Public\n  org_role: Viewer\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: the Admin role given to a logged-in team, anonymous access off',
    spec: {
      tool: 'Write',
      input: {
        file_path: 'grafana/grafana.ini',
        content:
          '[auth.anonymous]\nenabled = false\n\n[auth.generic_oauth]\nrole_attribute_path = contains(groups, "sre") && \'Admin\'\n',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: anonymous viewers beside an Admin role for users a proxy signs in',
    spec: {
      tool: 'Write',
      input: {
        file_path: 'grafana/grafana.ini',
        content: '[auth.anonymous]\nenabled = true\norg_role = Viewer\n\n[users]\nauto_assign_org_role = Admin\n',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: Jupyter without a token but only on this machine',
    spec: "jupyter lab --ip 127.0.0.1 --ServerApp.token=''",
    expect: null,
  },
  {
    note: 'near miss: Jupyter on every interface keeping its token',
    spec: 'jupyter lab --ip 0.0.0.0 --no-browser',
    expect: null,
  },
]);
