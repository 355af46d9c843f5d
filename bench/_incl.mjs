import { readFileSync } from 'node:fs'; import { frameName } from './profile-frames.mjs';
const [file, ...names] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file,'utf8'));
const byId = new Map(p.nodes.map(n=>[n.id,n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children??[]) parent.set(c, n.id);
const self = new Map();
p.samples.forEach((id,i)=>self.set(id,(self.get(id)??0)+(p.timeDeltas[i]??0)));
// inclusive per function name (count once per stack)
const incl = new Map();
for (const [id,us] of self) {
  const seen=new Set(); let cur=id;
  while(cur){ const c=byId.get(cur).callFrame; const k=frameName(c); if(!seen.has(k)){seen.add(k); incl.set(k,(incl.get(k)??0)+us);} cur=parent.get(cur);}
}
const rows=[...incl].filter(([k])=>names.length===0||names.some(n=>k.startsWith(n+' '))).sort((a,b)=>b[1]-a[1]).slice(0,60);
for (const [k,us] of rows) console.log((us/1000).toFixed(0).padStart(7),'ms',k);
