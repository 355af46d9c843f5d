// http-delete-request: a DELETE sent by hand to another host's API asks, and so does a request that changes something at
// a delete action (`…/doDelete`); to this machine, or a GET, it does not.
import { policyTable } from './table';

policyTable('http-delete-request', [
  {
    note: 'a repository on the artifact server deleted through its API',
    spec: 'curl -fsS -X DELETE -u "dev:$ART_TOKEN" https://artifacts.acme.internal/api/repositories/firmware-releases',
    expect: 'ask',
  },
  { note: 'the method glued to -X', spec: 'curl -XDELETE https://es.acme.internal:9200/logs-2024', expect: 'ask' },
  { note: 'curl --request=delete', spec: 'curl --request=delete https://api.example.com/v1/buckets/b', expect: 'ask' },
  { note: 'wget --method=DELETE', spec: 'wget -q --method=DELETE https://files.acme.internal/a.tar', expect: 'ask' },
  {
    note: "httpie's method word",
    spec: 'http DELETE api.example.com/v1/items/3 "Authorization:Bearer $T"',
    expect: 'ask',
  },
  {
    note: 'near miss: the local emulator cleared',
    spec: 'curl -s -X DELETE "http://127.0.0.1:8080/emulator/v1/projects/demo/documents"',
    expect: null,
  },
  { note: 'near miss: xh against a dev server', spec: 'xh delete localhost:3000/items/1', expect: null },
  {
    note: 'near miss: a GET to the same API',
    spec: 'curl -X GET https://artifacts.acme.internal/api/repositories',
    expect: null,
  },
  {
    note: "a Jenkins job removed through its API's delete action",
    spec: 'curl -n -X POST https://ci.acme.internal/job/legacy-billing/doDelete',
    expect: 'ask',
  },
  {
    note: 'a delete action reached by a form body',
    spec: 'curl -d confirm=1 https://api.example.com/v1/items/5/delete',
    expect: 'ask',
  },
  { note: 'httpie posting to a delete action', spec: 'http POST api.example.com/v1/projects/7/destroy', expect: 'ask' },
  {
    note: 'near miss: a page about deleting, fetched',
    spec: 'curl -s https://docs.example.com/api/delete',
    expect: null,
  },
  {
    note: 'near miss: a delete action on the local dev server',
    spec: 'curl -X POST -d x=1 http://localhost:8080/job/x/doDelete',
    expect: null,
  },
  {
    note: 'near miss: a post that creates',
    spec: 'curl -X POST -d name=x https://ci.acme.internal/createItem',
    expect: null,
  },
  {
    note: 'near miss: a body that only says DELETE',
    spec: 'curl -X POST -d "action=DELETE" https://api.example.com/v1/audit',
    expect: null,
  },
]);
