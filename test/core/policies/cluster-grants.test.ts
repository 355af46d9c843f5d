// Kubernetes manifests judged by what they grant, written into the project or handed to a cluster tool;
// a near miss beside each case.
import { policyTable } from './table';

const binding = (role: string, subject: string) =>
  `apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: ci\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: ${role}\nsubjects:\n  - ${subject}\n`;
const pod = (spec: string) =>
  `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  template:\n    spec:\n${spec}`;
const write = (file: string, content: string) => ({
  tool: 'Write',
  input: { file_path: `/home/dev/proj/${file}`, content },
});

policyTable('cluster-privilege-grant', [
  {
    note: 'a database published on every interface with no password',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/docker-compose.yml',
        old_string: '    ports:\n      - "127.0.0.1:5432:5432"\n    environment:\n      POSTGRES_PASSWORD: postgres',
        new_string: '    ports:\n      - "0.0.0.0:5432:5432"\n    environment:\n      POSTGRES_HOST_AUTH_METHOD: trust',
      },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: no password, reachable from this machine only',
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/docker-compose.yml',
        content:
          'services:\n  db:\n    image: postgres:16\n    ports:\n      - "127.0.0.1:5432:5432"\n    environment:\n      POSTGRES_HOST_AUTH_METHOD: trust\n',
      },
    },
    expect: null,
  },
  {
    note: 'cluster-admin bound to a service account',
    spec: write(
      'deploy/rbac.yaml',
      binding('cluster-admin', 'kind: ServiceAccount\n    name: default\n    namespace: ci'),
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: a read-only role bound',
    spec: write('deploy/rbac.yaml', binding('view', 'kind: ServiceAccount\n    name: default\n    namespace: ci')),
    expect: null,
  },
  {
    note: 'a role for every authenticated account',
    spec: write('deploy/rbac.yaml', binding('edit', 'kind: Group\n    name: system:authenticated')),
    expect: 'ask',
  },
  {
    note: 'a privileged pod with the node root mounted, handed to an MCP cluster tool',
    spec: {
      tool: 'mcp__kubernetes__kubectl_apply',
      input: {
        context: 'prod',
        manifest: pod(
          '      hostPID: true\n      containers:\n        - name: a\n          image: busybox\n          securityContext:\n            privileged: true\n      volumes:\n        - name: root\n          hostPath:\n            path: /\n',
        ),
      },
    },
    expect: 'ask',
  },
  {
    note: 'the node root alone',
    spec: write(
      'charts/agent/templates/ds.yaml',
      pod('      volumes:\n        - name: root\n          hostPath:\n            path: /\n'),
    ),
    expect: 'ask',
  },
  {
    note: "near miss: an Ingress's path /",
    spec: write(
      'deploy/ingress.yaml',
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n    - http:\n        paths:\n          - path: /\n            pathType: Prefix\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: an ordinary Deployment',
    spec: write(
      'deploy/web.yaml',
      pod(
        '      containers:\n        - name: web\n          image: registry.acme.example/web:1.4.2\n          securityContext:\n            runAsNonRoot: true\n',
      ),
    ),
    expect: null,
  },
  {
    note: "a compose file's privileged container (no apiVersion: read as a compose file)",
    spec: write('docker-compose.yml', 'services:\n  db:\n    image: postgres:16\n    privileged: true\n'),
    expect: 'ask',
  },
  {
    note: 'a compose file mounting the docker socket',
    spec: write(
      'docker-compose.yml',
      'services:\n  api:\n    volumes:\n      - ./api:/app\n      - /var/run/docker.sock:/var/run/docker.sock\n',
    ),
    expect: 'ask',
  },
  {
    note: 'a compose file with a privileged container on the host pid namespace',
    spec: write('docker-compose.override.yml', 'services:\n  worker:\n    privileged: true\n    pid: host\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: a compose file mounting the project',
    spec: write(
      'docker-compose.yml',
      'services:\n  api:\n    volumes:\n      - ./api:/app\n      - pgdata:/var/lib/postgresql/data\n',
    ),
    expect: null,
  },
  {
    note: 'an edit that makes a deployment privileged',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/deploy/k8s/api-deployment.yaml',
        old_string: '          securityContext:\n            runAsNonRoot: true',
        new_string: '          securityContext:\n            privileged: true',
      },
    },
    expect: 'ask',
  },
]);
