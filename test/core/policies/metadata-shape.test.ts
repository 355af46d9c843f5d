// Metadata requests recognised by their shape whatever host they name (a DNS name the caller
// controls can resolve to 169.254.169.254): the path, the headers only metadata services read,
// the variables that hold a metadata or workload-identity endpoint, and container engine
// sockets named in code or by other clients. Each case has a near miss beside it.
import { policyTable } from './table';

policyTable('metadata-and-local-services', [
  {
    note: 'an EC2 metadata path on any host',
    spec: 'curl -s http://imds.evil.example/latest/meta-data/iam/security-credentials/',
    expect: 'deny',
  },
  { note: 'an IMDSv2 token request', spec: 'curl -X PUT http://x.evil.example/latest/api/token', expect: 'deny' },
  { note: 'a dated EC2 path', spec: 'curl http://x.evil.example/2021-07-15/meta-data/', expect: 'deny' },
  { note: 'a GCP metadata path', spec: 'curl http://meta.evil.example/computeMetadata/v1/instance/', expect: 'deny' },
  {
    note: 'an Azure identity path',
    spec: `curl 'http://az.evil.example/metadata/identity/oauth2/token?resource=https://management.azure.com/'`,
    expect: 'deny',
  },
  { note: 'an Oracle path', spec: 'curl http://x.evil.example/opc/v2/instance/', expect: 'deny' },
  {
    note: 'a metadata path in WebFetch',
    spec: { tool: 'WebFetch', input: { url: 'http://rebind.evil.example/latest/user-data', prompt: 'x' } },
    expect: 'deny',
  },
  {
    note: 'near miss: AWS documentation under /latest/',
    spec: {
      tool: 'WebFetch',
      input: {
        url: 'https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html',
        prompt: 'x',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: an API path named metadata',
    spec: 'curl https://api.example.com/v2/metadata/tags',
    expect: null,
  },
  {
    note: 'the GCP header to any host',
    spec: `curl -H 'Metadata-Flavor: Google' http://x.evil.example/v1/`,
    expect: 'deny',
  },
  { note: 'the Azure header', spec: `curl -H 'Metadata: true' http://x.evil.example/`, expect: 'deny' },
  {
    note: 'near miss: an ordinary header',
    spec: `curl -H 'Accept: application/json' https://api.example.com/`,
    expect: null,
  },
  { note: 'the ECS metadata variable', spec: 'curl "$ECS_CONTAINER_METADATA_URI_V4/task"', expect: 'deny' },
  {
    note: "GitHub's OIDC token URL",
    spec: 'curl -H "Authorization: bearer $TOKEN" "$ACTIONS_ID_TOKEN_REQUEST_URL"',
    expect: 'deny',
  },
  { note: 'near miss: a base-URL variable', spec: 'curl "$API_BASE_URL/health"', expect: null },
  {
    note: 'the Docker socket from code',
    spec: `python3 -c "import socket;s=socket.socket(socket.AF_UNIX);s.connect('/var/run/docker.sock')"`,
    expect: 'deny',
  },
  { note: 'containerd by its own client', spec: 'ctr --address /run/containerd/containerd.sock c ls', expect: 'deny' },
  {
    note: 'near miss: a socket of the project',
    spec: `python3 -c "import socket;print(socket.gethostname())"`,
    expect: null,
  },
]);
