// device-locked-for-good: fuses burned and level-2 read-out protection ask; reading fuses and level 1 do not.
import { policyTable } from './table';

policyTable('device-locked-for-good', [
  {
    note: "an ESP32's JTAG fused off",
    spec: 'espefuse.py --port /dev/ttyUSB0 --do-not-confirm burn_efuse JTAG_DISABLE 1',
    expect: 'ask',
  },
  {
    note: 'a flash-encryption key burned',
    spec: 'espefuse --port /dev/ttyUSB0 burn_key BLOCK_KEY0 key.bin XTS_AES_128_KEY',
    expect: 'ask',
  },
  { note: "near miss: the fuses' summary read", spec: 'espefuse.py --port /dev/ttyUSB0 summary', expect: null },
  {
    note: 'an STM32 locked at read-out protection level 2',
    spec: 'STM32_Programmer_CLI -c port=SWD -ob RDP=0xCC',
    expect: 'ask',
  },
  {
    note: 'near miss: read-out protection level 1, undone by a mass erase',
    spec: 'STM32_Programmer_CLI -c port=SWD -ob RDP=0xBB',
    expect: null,
  },
  {
    note: 'near miss: an STM32 flashed and verified',
    spec: 'STM32_Programmer_CLI -c port=SWD -w build/fw.bin 0x08000000 -v',
    expect: null,
  },
]);
