import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { applyHeapGrowingPercent } from '../../src/config/heap-growth.js';

describe('V8 heap growth (HEAP_GROWING_PERCENT)', () => {
  it('leaves a --heap-growing-percent given on the command line alone', () => {
    expect(applyHeapGrowingPercent(50, ['--heap-growing-percent=120'])).toEqual({ source: 'command line' });
    expect(applyHeapGrowingPercent(50, ['--heap_growing_percent=120'])).toEqual({ source: 'command line' });
  });

  it("leaves V8's own growth when set to 0", () => {
    expect(applyHeapGrowingPercent(0, [])).toEqual({ source: 'V8 default' });
  });

  it('sets the flag in a process where V8 accepts it (the flag exists in this Node)', () => {
    // A misspelt or removed flag would make setFlagsFromString a silent no-op; V8's own list says it is there.
    const listed = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    expect(listed).toMatch(/--heap-growing-percent/);
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import v8 from 'node:v8'; v8.setFlagsFromString('--heap-growing-percent=50'); console.log('ok')",
      ],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('ok');
  });
});
