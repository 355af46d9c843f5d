import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { argsOf, evidenceOf, optionValues, shellCommands } from '../../facts/commands';
import { definePolicy } from '../types';
import { hostOfUrl, isLocalHost } from './shared/hosts';

// A transaction signed and sent to a public chain cannot be taken back: funds moved, an allowance
// granted, ownership handed over or renounced, a proxy upgraded. A local node (anvil, hardhat, ganache)
// and the test networks hold nothing of value; anything else is treated as a chain that does.

/** Names of networks and RPC endpoints that are test networks or this machine's node. */
const TEST_NETWORK =
  /(^|[^a-z])(sepolia|goerli|holesky|hoodi|testnet|devnet|localhost|local|anvil|hardhat|ganache|amoy|mumbai|fuji|chiado|alfajores)([^a-z]|$)/i;
/** Chain ids of test networks and local nodes (Sepolia, Goerli, Holesky, Hoodi, anvil and hardhat, ganache). */
const TEST_CHAIN_IDS = new Set(['11155111', '5', '17000', '560048', '31337', '1337']);

const HARDHAT_SENDING_TASKS = new Set(['run', 'deploy', 'ignition']);

/** Where the command sends, as written (`mainnet`, a URL, `$RPC_URL`), or undefined when it names none. */
function networkOf(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  const named = [
    ...optionValues(args, ['r'], ['rpc-url', 'fork-url']),
    ...optionValues(args, [], ['network', 'chain', 'chain-id']),
  ];
  if (named.length) return named.join(' ');
  return cmd.assignments['ETH_RPC_URL'];
}

/** A network with nothing of value on it: a test network, a local node, or one the person listed. */
function isTestNetwork(network: string, listed: readonly string[]): boolean {
  return network.split(' ').every((word) => {
    if (listed.includes(word)) return true;
    if (TEST_CHAIN_IDS.has(word) || TEST_NETWORK.test(word)) return true;
    const host = /^[a-z][\w+.-]*:\/\//i.test(word) ? hostOfUrl(word) : undefined;
    return host !== undefined && isLocalHost(host);
  });
}

/** What the command sends to a chain, or null when it only reads, simulates or signs offline. */
function sentTransaction(cmd: SimpleCommand, args: readonly string[]): string | null {
  if (cmd.name === 'cast') {
    if (args[0] === 'send') {
      const signature = args.slice(1).find((a) => /^[A-Za-z_]\w*\(.*\)$/.test(a));
      const value = optionValues(args, [], ['value'])[0];
      if (signature) return `cast send calls ${signature}`;
      return value ? `cast send transfers ${value}` : 'cast send sends a transaction';
    }
    if (args[0] === 'publish') return 'cast publish sends a signed transaction';
    if (args[0] === 'rpc' && /^eth_send(Raw)?Transaction$/.test(args.find((a) => a.startsWith('eth_')) ?? ''))
      return 'cast rpc sends a transaction';
    return null;
  }
  if (cmd.name === 'forge') {
    if (args[0] === 'script' && (args.includes('--broadcast') || args.includes('--resume')))
      return 'forge script broadcasts its transactions';
    if (args[0] === 'create' && args.includes('--broadcast')) return 'forge create deploys a contract';
    return null;
  }
  const at = args.indexOf('hardhat');
  const hardhatArgs = cmd.name === 'hardhat' ? args : at >= 0 ? args.slice(at + 1) : [];
  const task = hardhatArgs.find((a) => !a.startsWith('-'));
  if (task && HARDHAT_SENDING_TASKS.has(task) && optionValues(hardhatArgs, [], ['network']).length)
    return `hardhat ${task} runs its script`;
  return null;
}

export const chainTransaction = definePolicy({
  name: 'chain-transaction',
  category: 'infrastructure',
  description:
    'Asks before a transaction goes to a chain that is not a test network or a local node (cast send and publish, forge script --broadcast, forge create, hardhat run with --network): it cannot be taken back.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** Network names, chain ids or RPC URLs (as written in commands) that hold nothing of value. */
    testNetworks: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    for (const cmd of shellCommands(call)) {
      const args = argsOf(cmd);
      const sent = sentTransaction(cmd, args);
      if (!sent) continue;
      // No network named: cast and forge send where ETH_RPC_URL or foundry.toml points, which may be a live chain.
      const network = networkOf(cmd, args);
      if (network !== undefined && isTestNetwork(network, params.testNetworks)) continue;
      return {
        reason: `${sent} on ${network ?? 'the network ETH_RPC_URL or foundry.toml names'}: a transaction on a live chain cannot be taken back (funds, allowances, ownership, upgrades). Approve this exact call if it should go out, or list a test network in chain-transaction's testNetworks.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});
