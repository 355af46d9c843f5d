// A chip locked or fused for good: an ESP32's eFuses burned (JTAG off, a key, flash encryption), an
// STM32's read-out protection set to level 2. No erase, reflash or debug probe undoes either: the board
// is what it now is. A person decides, on the bench, with the board in front of them.
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';

const EFUSE_TOOLS = new Set(['espefuse', 'espefuse.py']);
/** espefuse's commands that write fuses; summary, dump and get_custom_mac only read them. */
const FUSE_WRITES = /^(burn_\w+|write_protect_efuse|read_protect_efuse|set_flash_voltage)$/;
const STM32_PROGRAMMERS = new Set(['STM32_Programmer_CLI', 'STM32_Programmer.sh', 'stm32programmercli']);
/** Read-out protection level 2 (0xCC): debug and reflashing off for good. Level 1 (0xBB) is undone by a mass erase. */
const RDP_LEVEL_2 = /^RDP=(0xCC|2|Level2)$/i;

function lockedForGood(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  if (EFUSE_TOOLS.has(cmd.name)) {
    const write = args.find((word) => FUSE_WRITES.test(word));
    return write !== undefined ? `espefuse ${write} burns eFuses, which no erase or reflash can clear` : undefined;
  }
  if (STM32_PROGRAMMERS.has(cmd.name) && args.some((word) => RDP_LEVEL_2.test(word)))
    return 'read-out protection level 2 locks the chip against debug and reflashing for good';
  return undefined;
}

export const deviceLockedForGood = definePolicy({
  name: 'device-locked-for-good',
  category: 'dangerous-commands',
  description:
    "Asks before a chip is locked or fused for good: espefuse's burn_* and protect commands, an STM32's read-out protection set to level 2.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      const why = lockedForGood(cmd);
      if (why)
        return {
          reason: `Changes the board for good (${why}): the person decides, with the board in front of them.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
