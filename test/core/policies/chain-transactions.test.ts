// chain-transaction: a transaction sent to a live chain asks; a local node, a test network, a simulation and reads do not.
import { policyTable } from './table';

policyTable('chain-transaction', [
  {
    note: 'ownership renounced on mainnet',
    spec: "cast send 0x3b7e9a2c4d5f6a7b8c9d0e1f2a3b4c5d6e7f8091 'renounceOwnership()' --rpc-url mainnet --ledger",
    expect: 'ask',
  },
  {
    note: 'ether sent from the deployer',
    spec: 'cast send 0x5e1f0c2b7a93d4e8b6c1a0f2d3e4b5a6c7d8e9f0 --value 25ether --rpc-url mainnet --account deployer',
    expect: 'ask',
  },
  {
    note: "an upgrade broadcast through the company's node, whose URL names mainnet",
    spec: 'forge script script/Upgrade.s.sol:UpgradeVault --rpc-url https://rpc.acme.internal/mainnet --broadcast --ledger',
    expect: 'ask',
  },
  {
    note: 'no network named: wherever ETH_RPC_URL points',
    spec: "cast send $VAULT 'transferOwnership(address)' 0x5e1f0c2b7a93d4e8b6c1a0f2d3e4b5a6c7d8e9f0 --ledger",
    expect: 'ask',
  },
  { note: 'a signed transaction published', spec: 'cast publish --rpc-url $MAINNET_RPC 0x02f8b1', expect: 'ask' },
  {
    note: 'a hardhat script run on mainnet',
    spec: 'npx hardhat run scripts/deploy.ts --network mainnet',
    expect: 'ask',
  },
  {
    note: 'near miss: the same call on the local anvil node',
    spec: "cast send 0x5FbDB2315678afecb367f032d93F642f64180aa3 'renounceOwnership()' --rpc-url http://127.0.0.1:8545 --unlocked",
    expect: null,
  },
  {
    note: 'near miss: a deploy broadcast to Sepolia',
    spec: 'forge script script/Deploy.s.sol --rpc-url sepolia --broadcast --account sepolia-test',
    expect: null,
  },
  {
    note: 'near miss: a Sepolia endpoint in a variable',
    spec: 'cast send $TOKEN --value 1ether --rpc-url $SEPOLIA_RPC_URL --account test',
    expect: null,
  },
  {
    note: 'near miss: the mainnet upgrade simulated, not broadcast',
    spec: 'forge script script/Upgrade.s.sol:UpgradeVault --rpc-url https://rpc.acme.internal/mainnet -vvvv',
    expect: null,
  },
  {
    note: 'near miss: a read call on mainnet',
    spec: "cast call $VAULT 'owner()(address)' --rpc-url mainnet",
    expect: null,
  },
  { note: 'near miss: hardhat on its built-in network', spec: 'npx hardhat run scripts/deploy.ts', expect: null },
  { note: 'near miss: hardhat tests', spec: 'npx hardhat test --network hardhat', expect: null },
]);
