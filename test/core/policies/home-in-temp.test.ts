// A home folder that lies in a temp folder (HOME=/tmp/h, as in CI sandboxes and throwaway
// accounts) is still the person's home: the temp-folder exemption never covers the home, what it
// holds, or the folders that hold it (/tmp itself).
import { policyTable } from './table';

const home = '/tmp/h';
const root = '/srv/proj';
const inTempHome = (bash: string) => ({ bash, home, root, cwd: root });

policyTable('recursive-delete-outside-project', [
  { note: 'the home by tilde', spec: inTempHome('rm -rf ~'), expect: 'deny' },
  { note: 'the home by $HOME', spec: inTempHome('rm -rf $HOME/'), expect: 'deny' },
  { note: 'the home by path', spec: inTempHome('rm -rf /tmp/h'), expect: 'deny' },
  { note: 'the temp folder that holds the home', spec: inTempHome('rm -rf /tmp'), expect: 'deny' },
  { note: 'everything in the temp folder', spec: inTempHome('rm -rf /tmp/*'), expect: 'deny' },
  { note: 'a folder inside the home', spec: inTempHome('rm -rf ~/.ssh'), expect: 'deny' },
  { note: 'a name in /tmp known only at run time', spec: inTempHome('rm -rf /tmp/$X'), expect: 'ask' },
  { note: 'find -delete over the home', spec: inTempHome('find /tmp/h -delete'), expect: 'deny' },
  { note: 'near miss: another temp folder', spec: inTempHome('rm -rf /tmp/build-123'), expect: null },
  { note: 'near miss: a home-like name beside it', spec: inTempHome('rm -rf /tmp/h2'), expect: null },
  { note: 'near miss: /var/tmp scratch', spec: inTempHome('rm -rf /var/tmp/x'), expect: null },
  {
    note: 'near miss: a run-time name under a scratch folder',
    spec: inTempHome('rm -rf /tmp/build/$X'),
    expect: null,
  },
  {
    note: 'near miss: a listed folder in the home',
    spec: inTempHome('rm -rf ~/.cache/tool'),
    params: { allowedPaths: ['~/.cache'] },
    expect: null,
  },
  { note: 'an ordinary home keeps its scratch exemption', spec: 'rm -rf /tmp/x', expect: null },
]);

policyTable('write-outside-project', [
  { note: 'a file in the home', spec: inTempHome('echo x > ~/notes.txt'), expect: 'ask' },
  { note: 'the home moved away', spec: inTempHome('mv /tmp/h /tmp/old'), expect: 'ask' },
  { note: 'near miss: a scratch file in /tmp', spec: inTempHome('echo x > /tmp/out.txt'), expect: null },
]);
