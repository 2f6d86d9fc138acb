import { describe, expect, it } from 'vitest';
import { layerOf } from '../../bench/lib/profile-layers.js';

describe('a profile frame`s layer of the stack', () => {
  it('puts each origin in the layer a reader would look for', () => {
    expect(layerOf('@prisma/client')).toBe('database client: Prisma Client and its adapter');
    expect(layerOf('@prisma/adapter-pg')).toBe('database client: Prisma Client and its adapter');
    expect(layerOf('pg-protocol')).toBe('database driver: pg');
    expect(layerOf('router')).toBe('Express (routing, body parsing)');
    expect(layerOf('body-parser')).toBe('Express (routing, body parsing)');
    expect(layerOf('pino')).toBe('access log: pino');
    expect(layerOf('prom-client')).toBe('metrics: prom-client');
    expect(layerOf('service:db/stores')).toBe("the service's own code: db/stores");
    expect(layerOf('node:*')).toBe('Node core (http, net, streams, crypto)');
    expect(layerOf('(garbage collector)')).toBe('garbage collection');
  });

  it('names a package it does not know rather than hiding it in a layer', () => {
    expect(layerOf('left-pad')).toBe('other packages: left-pad');
  });
});
