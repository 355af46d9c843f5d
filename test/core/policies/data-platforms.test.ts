// data-platform-destructive: deleting a stream's or a lake's data asks; reads, long retention and a broker on this machine do not.
import { policyTable } from './table';

policyTable('data-platform-destructive', [
  {
    note: 'topics deleted on the shared cluster',
    spec: "kafka-topics --bootstrap-server kafka.acme.internal:9092 --delete --topic 'orders\\..*'",
    expect: 'ask',
  },
  {
    note: 'the script form of the same tool',
    spec: 'kafka-topics.sh --bootstrap-server kafka.acme.internal:9092 --delete --topic payments.v2',
    expect: 'ask',
  },
  {
    note: "a topic's retention cut to a second",
    spec: 'kafka-configs --bootstrap-server kafka.acme.internal:9092 --alter --entity-type topics --entity-name payments.v2 --add-config retention.ms=1000',
    expect: 'ask',
  },
  { note: 'a Redpanda topic deleted', spec: 'rpk topic delete payments.v2', expect: 'ask' },
  {
    note: "a subgraph removed from the company's Graph Node",
    spec: 'graph remove --node https://graph-admin.acme.internal acme/vault-mainnet',
    expect: 'ask',
  },
  {
    note: 'near miss: a subgraph removed from the Graph Node on this machine',
    spec: 'graph remove --node http://localhost:8020/ acme/vault-local',
    expect: null,
  },
  { note: 'the gold layer of the lake removed', spec: 'databricks fs rm -r dbfs:/mnt/lake/gold', expect: 'ask' },
  {
    note: 'a Databricks cluster deleted for good',
    spec: 'databricks clusters permanent-delete 0612-191020-abc123',
    expect: 'ask',
  },
  {
    note: 'near miss: a topic deleted on a broker on this machine',
    spec: 'kafka-topics --bootstrap-server localhost:9092 --delete --topic test',
    expect: null,
  },
  {
    note: 'near miss: topics listed',
    spec: 'kafka-topics --bootstrap-server kafka.acme.internal:9092 --list',
    expect: null,
  },
  {
    note: 'near miss: retention set to a week',
    spec: 'kafka-configs --bootstrap-server kafka.acme.internal:9092 --alter --entity-type topics --entity-name p --add-config retention.ms=604800000',
    expect: null,
  },
  { note: 'near miss: the lake listed', spec: 'databricks fs ls dbfs:/mnt/lake', expect: null },
]);
