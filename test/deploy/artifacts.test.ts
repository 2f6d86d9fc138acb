import { randomBytes } from 'node:crypto';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { configuredVariables } from '../support/config.js';
import { startTestService, type TestService } from '../support/service.js';
import { freePort } from '../../src/db/postgres/embedded-postgres.js';
import { productionNodeFlags } from '../../scripts/lib/production-start.js';
import { HUNG_TEST_DEADLINE_MS } from '../support/eventually.js';
import { patroniConfig } from '../../scripts/fleet/lib/patroni.js';

/**
 * The production artifacts (Dockerfile, compose.yaml, deploy/), checked as far as this machine allows: it
 * has no container runtime and no cluster, so nothing here builds an image or applies a manifest
 * (docs/how-to/run-in-production.md, "What was run here"). The rules are hadolint's and a reviewer's: pinned images, a
 * non-root user, probes on the right paths, only settings the service reads, values it accepts.
 */

const VARIABLES = new Set(configuredVariables());
const SERVICE_IMAGE = 'registry.example.com/customer-account-service';
const HAPROXY_BINARY = '/usr/sbin/haproxy';
const PATRONI_BINARY = '/usr/bin/patroni';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = any;

/** Every document of a YAML file, parsed strictly (YAML 1.1 merge keys allowed: compose's `<<: *anchor`). */
function yamlDocuments(file: string): Node[] {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'), {
    merge: true,
    uniqueKeys: true,
    prettyErrors: true,
  });
  const list = Array.isArray(documents) ? documents : [documents];
  for (const document of list) {
    expect(document.errors.map((error) => `${file}: ${error.message}`)).toEqual([]);
    expect(document.warnings.map((warning) => `${file}: ${warning.message}`)).toEqual([]);
  }
  return list.map((document) => document.toJS({ maxAliasCount: 100 })).filter((value) => value !== null);
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(file);
    return /\.ya?ml$/.test(entry.name) ? [file] : [];
  });
}

/** A valid value for each secret key the manifests and compose.yaml use, so their settings can be loaded as the service would. */
const SYNTHETIC_SECRETS: Record<string, string> = {
  'database-url': 'postgresql://cas_app:pw@postgres-primary:5432/customer_account',
  'migration-database-url': 'postgresql://cas_owner:pw@postgres-primary:5432/customer_account',
  'api-tokens': randomBytes(32).toString('hex'),
  'pii-keys': `k2026:${randomBytes(32).toString('base64')}`,
  'pii-active-key': 'k2026',
  'pii-blind-index-key': randomBytes(32).toString('base64'),
  'redis-url': 'redis://redis:6379/0',
  'metrics-token': randomBytes(32).toString('hex'),
};

function expectPinned(image: string, where: string): void {
  expect(image, `${where}: image`).toMatch(/^[a-z0-9./-]+(:[A-Za-z0-9._-]+)?(@sha256:[0-9a-f]{64})?$/);
  const tag = /:([A-Za-z0-9._-]+)(@|$)/.exec(image.replace(/^[^/]+:\d+\//, ''))?.[1];
  const digest = image.includes('@sha256:');
  expect(
    digest || (tag !== undefined && tag !== 'latest'),
    `${where}: ${image} must name a version (a tag other than latest, or a digest)`,
  ).toBe(true);
  // A version, not a moving major: at least major.minor in the tag, unless pinned by digest.
  if (!digest) expect(tag, `${where}: ${image}`).toMatch(/^v?\d+\.\d+/);
}

describe('YAML files', () => {
  const files = [...yamlFiles('deploy'), 'compose.yaml'];

  it('parse, every one (no duplicate keys, no syntax errors)', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) expect(yamlDocuments(file).length, file).toBeGreaterThan(0);
  });
});

describe('Kubernetes manifests (deploy/k8s)', () => {
  const dir = 'deploy/k8s';
  const manifests = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml')
    .flatMap((name) => yamlDocuments(path.join(dir, name)).map((document) => ({ file: name, document })));
  const ofKind = (kind: string) => manifests.filter((m) => m.document.kind === kind).map((m) => m.document);
  const [deployment] = ofKind('Deployment');
  const [job] = ofKind('Job');
  const [configMap] = ofKind('ConfigMap');
  const [secretExample] = ofKind('Secret');
  const kustomization = yamlDocuments(path.join(dir, 'kustomization.yaml'))[0];

  it('are well-formed objects, and kustomization.yaml lists every one but the job and the example Secret', () => {
    for (const { file, document } of manifests) {
      expect(typeof document.apiVersion, file).toBe('string');
      expect(typeof document.kind, file).toBe('string');
      expect(document.metadata?.name, file).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
    const files = new Set(manifests.map((m) => m.file));
    for (const resource of kustomization.resources) expect(files.has(resource), resource).toBe(true);
    expect([...files].filter((file) => !kustomization.resources.includes(file)).sort()).toEqual([
      'migration-job.yaml',
      'secret.example.yaml',
    ]);
    expect(kustomization.images).toEqual([{ name: SERVICE_IMAGE, newTag: expect.stringMatching(/^\d+\.\d+\.\d+$/) }]);
    expect(ofKind('Deployment')).toHaveLength(1);
    expect(ofKind('PodDisruptionBudget')).toHaveLength(1);
    expect(ofKind('Service')).toHaveLength(1);
    expect(ofKind('Job')).toHaveLength(1);
  });

  /** The pod's and the container's security settings, as the kubelet combines them. */
  function expectLockedDown(pod: Node, container: Node, where: string): void {
    const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
    const runAsUser = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
    expect(runAsNonRoot, `${where}: runAsNonRoot`).toBe(true);
    expect(runAsUser, `${where}: runAsUser (the image's USER)`).toBe(1000);
    expect(container.securityContext, where).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.automountServiceAccountToken, `${where}: automountServiceAccountToken`).toBe(false);
    for (const kind of ['requests', 'limits']) {
      expect(container.resources?.[kind], `${where}: resources.${kind}`).toMatchObject({
        cpu: expect.anything(),
        memory: expect.anything(),
      });
    }
    expectPinned(container.image, where);
    expect(container.image.startsWith(`${SERVICE_IMAGE}:`), `${where}: the image kustomization.yaml retags`).toBe(true);
  }

  /** The container's environment as the service would see it: ConfigMap keys, literal values, Secret keys (synthetic values). */
  function environmentOf(container: Node, where: string): Record<string, string> {
    const env: Record<string, string> = {};
    for (const source of container.envFrom ?? []) {
      expect(source.configMapRef?.name, `${where}: envFrom`).toBe(configMap.metadata.name);
      Object.assign(env, configMap.data);
    }
    for (const variable of container.env ?? []) {
      const secret = variable.valueFrom?.secretKeyRef;
      if (secret) {
        expect(secret.name, `${where}: ${variable.name}`).toBe(secretExample.metadata.name);
        expect(
          Object.keys(secretExample.stringData),
          `${where}: ${variable.name} reads a key the example Secret documents`,
        ).toContain(secret.key);
        expect(Object.keys(SYNTHETIC_SECRETS)).toContain(secret.key);
        env[variable.name] = SYNTHETIC_SECRETS[secret.key]!;
      } else {
        expect(typeof variable.value, `${where}: ${variable.name}`).toBe('string');
        env[variable.name] = variable.value;
      }
    }
    expect(
      Object.keys(env).filter((name) => !VARIABLES.has(name)),
      `${where}: variables the service does not read`,
    ).toEqual([]);
    return env;
  }

  it('Deployment: several instances, probes on /readyz and /healthz, non-root, read-only, resources, a pinned image', () => {
    const pod = deployment.spec.template.spec;
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(3);
    expect(deployment.spec.strategy.rollingUpdate.maxUnavailable).toBe(0);
    expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
    expect(pod.containers.length).toBeGreaterThan(0);
    for (const container of pod.containers) {
      const where = `Deployment ${container.name}`;
      const ports = new Map<string | number, number>(
        container.ports.flatMap((port: Node) => [
          [port.name, port.containerPort],
          [port.containerPort, port.containerPort],
        ]),
      );
      expect(container.readinessProbe?.httpGet?.path, `${where}: readinessProbe`).toBe('/readyz');
      expect(container.livenessProbe?.httpGet?.path, `${where}: livenessProbe`).toBe('/healthz');
      for (const probe of [container.readinessProbe, container.livenessProbe, container.startupProbe].filter(Boolean)) {
        expect(ports.get(probe.httpGet.port), `${where}: probe port`).toBe(3000);
      }
      expectLockedDown(pod, container, where);
      const env = environmentOf(container, where);
      // The service itself accepts these settings, production's refusals included (tokens, keys).
      const config = loadConfig(env);
      expect(config).toMatchObject({
        nodeEnv: 'production',
        port: 3000,
        runMigrationsOnStart: false,
        metrics: { port: 9464 },
      });
      expect(ports.get('metrics')).toBe(config.metrics.port);
      // SIGTERM comes after preStop; in-flight requests get SHUTDOWN_TIMEOUT_MS; the kubelet waits longer than both.
      const preStopS = Number(container.lifecycle?.preStop?.exec?.command?.[1] ?? 0);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(preStopS + config.shutdownTimeoutMs / 1000);
    }
  });

  it("Service, PodDisruptionBudget: select the Deployment's pods, on ports its container declares", () => {
    const labels = deployment.spec.template.metadata.labels;
    const [service] = ofKind('Service');
    const [budget] = ofKind('PodDisruptionBudget');
    expect(labels).toMatchObject(service.spec.selector);
    expect(labels).toMatchObject(budget.spec.selector.matchLabels);
    expect(budget.spec.maxUnavailable ?? deployment.spec.replicas - budget.spec.minAvailable).toBeLessThan(
      deployment.spec.replicas,
    );
    const portNames = deployment.spec.template.spec.containers[0].ports.map((port: Node) => port.name);
    for (const port of service.spec.ports) expect(portNames, `Service port ${port.name}`).toContain(port.targetPort);
  });

  it('migration Job: the migration command, as the schema owner, with no tokens or PII keys, locked down like the service', () => {
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(job.spec.backoffLimit).toBeGreaterThanOrEqual(0);
    for (const container of pod.containers) {
      const where = `Job ${container.name}`;
      expect(container.command).toEqual(['node', 'dist/db/migrations/migrate-cli.js']);
      expect(existsSync('src/db/migrations/migrate-cli.ts')).toBe(true);
      expectLockedDown(pod, container, where);
      expect(container.image).toBe(deployment.spec.template.spec.containers[0].image);
      const env = environmentOf(container, where);
      expect(Object.keys(env).filter((name) => /^(API_TOKENS|PII_|METRICS_TOKEN|OIDC_)/.test(name))).toEqual([]);
      expect(container.env.find((variable: Node) => variable.name === 'DATABASE_URL').valueFrom.secretKeyRef.key).toBe(
        'migration-database-url',
      );
      expect(loadConfig(env, { databaseOnly: true })).toMatchObject({
        nodeEnv: 'production',
        databasePreparedStatements: true,
      });
    }
  });
});

describe('Dockerfile', () => {
  const text = readFileSync('Dockerfile', 'utf8');
  // Continuation lines joined, comments dropped: one instruction per entry.
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
  const stages: { name: string; image: string; instructions: typeof instructions }[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(/\s+/);
      expect(as?.toUpperCase(), `FROM ${instruction.args}: every stage named`).toBe('AS');
      stages.push({ name: name!, image: image!, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  const final = stages.at(-1)!;
  const inFinal = (keyword: string) => final.instructions.filter((instruction) => instruction.keyword === keyword);

  it('pins every base image, Node 26, and builds in stages', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      expectPinned(stage.image, `FROM ${stage.image}`);
      expect(stage.image, 'Node 26 LTS (.node-version)').toMatch(
        new RegExp(`^node:${readFileSync('.node-version', 'utf8').trim()}\\.`),
      );
    }
  });

  it("follows hadolint's rules: no ADD (DL3020, and no URLs), absolute WORKDIR (DL3000), exec-form CMD (DL3025), no sudo, no apt upgrade", () => {
    expect(instructions.filter((instruction) => instruction.keyword === 'ADD')).toEqual([]);
    expect(
      instructions.filter((instruction) => instruction.keyword === 'WORKDIR' && !instruction.args.startsWith('/')),
    ).toEqual([]);
    for (const keyword of ['CMD', 'ENTRYPOINT']) {
      for (const instruction of instructions.filter((i) => i.keyword === keyword))
        expect(() => JSON.parse(instruction.args), `${keyword} ${instruction.args}`).not.toThrow();
    }
    expect(
      instructions.filter(
        (instruction) =>
          instruction.keyword === 'RUN' && /\bsudo\b|apt(-get)? (dist-)?upgrade|curl .*\|\s*sh/.test(instruction.args),
      ),
    ).toEqual([]);
    // The same Node flags as `npm start`, where they are written (scripts/lib/production-start.ts).
    expect(inFinal('CMD').map((instruction) => JSON.parse(instruction.args))).toEqual([
      ['node', ...productionNodeFlags('.'), 'dist/main.js'],
    ]);
  });

  it('starts Node with semi-spaces of 12 MB, as npm start does (docs/adr/0076: peak RSS under the mixed load)', () => {
    expect(productionNodeFlags('.')).toEqual(['--max-semi-space-size=12']);
  });

  it('runs as a numeric non-root user, with a HEALTHCHECK on /healthz', () => {
    const users = inFinal('USER');
    expect(users.length).toBe(1);
    const [uid] = users[0]!.args.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
    const healthchecks = inFinal('HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    expect(healthchecks[0]!.args).toContain('/healthz');
    // Everything after USER runs unprivileged: nothing may switch back.
    expect(final.instructions.slice(final.instructions.indexOf(users[0]!)).filter((i) => i.keyword === 'RUN')).toEqual(
      [],
    );
  });

  it('installs production dependencies with npm ci --omit=dev, and the final image holds only them, dist, the migrations and what the runtime reads', () => {
    const copies = inFinal('COPY').map((instruction) => instruction.args.split(/\s+/));
    const fromStage = (copy: string[]) =>
      /^--from=(.+)$/.exec(copy.find((part) => part.startsWith('--from=')) ?? '')?.[1];
    const sources = copies.flatMap((copy) => {
      const parts = copy.filter((part) => !part.startsWith('--'));
      return parts.slice(0, -1).map((source) => `${fromStage(copy) ?? 'context'}:${source}`);
    });
    const dependencies = stages.find((stage) =>
      stage.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b.*--omit=dev\b/.test(i.args)),
    );
    const build = stages.find((stage) =>
      stage.instructions.some((i) => i.keyword === 'RUN' && /\bnpm run build\b/.test(i.args)),
    );
    expect(dependencies, 'a stage that runs npm ci --omit=dev').toBeDefined();
    expect(build, 'a stage that runs npm run build').toBeDefined();
    expect(sources.sort()).toEqual(
      [
        `${dependencies!.name}:/app/node_modules`,
        `${build!.name}:/app/dist`,
        'context:package.json',
        'context:schema.graphql',
        'context:prisma/migrations',
      ].sort(),
    );
    // What the compiled service reads at run time, relative to its module in dist/: the GraphQL schema and the migrations.
    expect(readFileSync('src/graphql/schema.ts', 'utf8')).toContain("new URL('../../schema.graphql', import.meta.url)");
    expect(readFileSync('src/db/migrations/migrations.ts', 'utf8')).toContain(
      "new URL('../../../prisma/migrations', import.meta.url)",
    );
    expect(JSON.parse(readFileSync('package.json', 'utf8')).type).toBe('module');
  });

  it('.dockerignore keeps local data, secrets and modules out, and nothing the build copies', () => {
    const patterns = readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    const ignored = (file: string) => {
      let result = false;
      for (const pattern of patterns) {
        const negated = pattern.startsWith('!');
        const glob = negated ? pattern.slice(1) : pattern;
        const regex = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`);
        if (regex.test(file)) result = !negated;
      }
      return result;
    };
    for (const file of [
      'node_modules',
      '.env',
      '.env.production',
      '.data',
      '.git',
      'dist',
      'test-output',
      'src/db/generated',
    ])
      expect(ignored(file), file).toBe(true);
    const contextSources = instructions
      .filter((instruction) => instruction.keyword === 'COPY' && !instruction.args.includes('--from='))
      .flatMap((instruction) =>
        instruction.args
          .split(/\s+/)
          .filter((part) => !part.startsWith('--'))
          .slice(0, -1),
      );
    expect(contextSources.length).toBeGreaterThan(5);
    for (const source of contextSources) {
      expect(existsSync(source), `COPY ${source}`).toBe(true);
      expect(ignored(source), `COPY ${source} is excluded by .dockerignore`).toBe(false);
    }
  });
});

describe('compose.yaml', () => {
  const compose = yamlDocuments('compose.yaml')[0];
  const services: Record<string, Node> = compose.services;
  const interpolate = (value: string) =>
    value.replace(
      /\$\{([A-Z0-9_]+)(:?[?-][^}]*)?\}/g,
      (_, name: string) => `synthetic${name.toLowerCase().replace(/_/g, '')}`,
    );
  const environmentOf = (service: Node): Record<string, string> =>
    Object.fromEntries(
      Object.entries(service.environment as Record<string, string>).map(([key, value]) => [
        key,
        interpolate(String(value)),
      ]),
    );
  const serviceImage = 'customer-account-service:';
  const instances = Object.entries(services).filter(
    ([name, service]) => String(service.image).startsWith(serviceImage) && name !== 'migrate',
  );
  const etcdMembers = Object.entries(services).filter(([, service]) =>
    String(service.image).startsWith('quay.io/coreos/etcd:'),
  );
  const patroniMembers = Object.entries(services).filter(([, service]) =>
    (service.volumes ?? []).some((volume: string) => volume.startsWith('./deploy/patroni/patroni.yml:')),
  );

  it('has the fleet: three instances, HAProxy, etcd and Patroni members, HAProxy for PostgreSQL, Redis, the one-shot jobs', () => {
    expect(instances.map(([name]) => name)).toEqual(['app-1', 'app-2', 'app-3']);
    expect(etcdMembers.map(([name]) => name)).toEqual(['etcd-1', 'etcd-2', 'etcd-3']);
    expect(patroniMembers.map(([name]) => name)).toEqual(['pg-1', 'pg-2', 'pg-3']);
    for (const name of ['haproxy', 'postgres-haproxy', 'postgres-roles', 'redis', 'migrate'])
      expect(Object.keys(services)).toContain(name);
    // The hand-failed-over pair is gone.
    expect(Object.keys(services).filter((name) => /^postgres-(primary|replica)$/.test(name))).toEqual([]);
    for (const [name, service] of Object.entries(services)) {
      if (!String(service.image).startsWith(serviceImage)) expectPinned(service.image, `compose ${name}`);
    }
  });

  it('etcd: a quorum of three, each member advertising its own name, every one in the initial cluster', () => {
    const clusters = new Set<string>();
    for (const [name, service] of etcdMembers) {
      const env = environmentOf(service);
      expect(env.ETCD_NAME, name).toBe(name);
      expect(env.ETCD_ADVERTISE_CLIENT_URLS, name).toBe(`http://${name}:2379`);
      expect(env.ETCD_INITIAL_ADVERTISE_PEER_URLS, name).toBe(`http://${name}:2380`);
      expect(env.ETCD_INITIAL_CLUSTER_STATE, name).toBe('new');
      expect(service.healthcheck.test.join(' '), name).toMatch(/etcdctl .*endpoint health/);
      expect(service.volumes, name).toEqual([expect.stringMatching(new RegExp(`^${name}-data:${env.ETCD_DATA_DIR}$`))]);
      clusters.add(env.ETCD_INITIAL_CLUSTER!);
    }
    expect([...clusters]).toEqual([etcdMembers.map(([name]) => `${name}=http://${name}:2380`).join(',')]);
  });

  describe('the Patroni members', () => {
    const template = readFileSync('deploy/patroni/patroni.yml', 'utf8');
    const placeholders = [...new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((match) => match[1]!))];
    /** The member file as deploy/patroni/start-member.sh writes it from the member's environment. */
    const memberFile = (env: Record<string, string>) => patroniConfig(env);

    it('run the Dockerfile built from the pinned PostgreSQL image compose already uses, as postgres, on patroni', () => {
      const dockerfile = readFileSync('deploy/patroni/Dockerfile', 'utf8');
      const from = /^FROM (\S+) AS \S+$/m.exec(dockerfile)?.[1];
      expectPinned(from!, 'deploy/patroni/Dockerfile');
      expect(services['postgres-roles'].image, 'the same PostgreSQL as the jobs').toBe(from);
      expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends patroni python3-etcd python3-psycopg2/);
      expect(dockerfile).toMatch(/^USER postgres$/m);
      expect(/^CMD (.*)$/m.exec(dockerfile)?.[1] && JSON.parse(/^CMD (.*)$/m.exec(dockerfile)![1]!)).toEqual([
        'patroni',
        '/tmp/patroni.yml',
      ]);
      expect(JSON.parse(/^ENTRYPOINT (.*)$/m.exec(dockerfile)![1]!)).toEqual(['/usr/local/bin/start-member.sh']);
      for (const [name, service] of patroniMembers) {
        expect(service.build, name).toBe('./deploy/patroni');
        expectPinned(service.image, `compose ${name}`);
      }
    });

    it("fill every placeholder of the fleet's member file, with their own names and a data volume each", () => {
      for (const [name, service] of patroniMembers) {
        const env = environmentOf(service);
        expect(
          placeholders.filter((placeholder) => !env[placeholder]),
          name,
        ).toEqual([]);
        expect(env.ADDRESS, name).toBe(name);
        expect(env.MEMBER, name).toBe(name.replace('-', ''));
        expect(env.ETCD_HOSTS, name).toBe(etcdMembers.map(([etcd]) => `${etcd}:2379`).join(','));
        expect(env.CLIENT_NETWORK, name).toBe('samenet');
        // Secrets from the environment only.
        expect(service.environment.SUPERUSER_PASSWORD, name).toBe(
          '${CAS_POSTGRES_PASSWORD:?set CAS_POSTGRES_PASSWORD}',
        );
        expect(service.environment.REPLICATION_PASSWORD, name).toBe(
          '${CAS_REPLICATION_PASSWORD:?set CAS_REPLICATION_PASSWORD}',
        );
        expect(service.volumes, name).toEqual([
          './deploy/patroni/patroni.yml:/etc/patroni/patroni.yml.in:ro',
          `./deploy/postgres/postgresql.conf:${env.POSTGRESQL_CONF}:ro`,
          `${name}-data:/var/lib/postgresql/data`,
        ]);
        expect(env.DATA_DIR!.startsWith('/var/lib/postgresql/data/'), name).toBe(true);
        const member = parse(memberFile(env));
        expect(member.bootstrap.dcs.synchronous_mode, name).toBe(true);
        expect(member.restapi.connect_address, name).toBe(`${name}:8008`);
        expect(member.postgresql.connect_address, name).toBe(`${name}:5432`);
        // Listening on every address of the container: its healthcheck asks 127.0.0.1, the others its name.
        expect(env.PATRONI_RESTAPI_LISTEN, name).toBe('0.0.0.0:8008');
        expect(env.PATRONI_POSTGRESQL_LISTEN, name).toBe('0.0.0.0:5432');
        expect(new Set(patroniMembers.map(([, other]) => environmentOf(other).MEMBER)).size).toBe(
          patroniMembers.length,
        );
      }
    });

    it("are healthy by Patroni's REST API (GET /health), and start once etcd is", () => {
      for (const [name, service] of patroniMembers) {
        expect(service.healthcheck.test.join(' '), name).toContain('http://127.0.0.1:8008/health');
        expect(Object.keys(service.depends_on).sort(), name).toEqual(etcdMembers.map(([etcd]) => etcd));
      }
    });

    it.runIf(existsSync(PATRONI_BINARY))(
      '`patroni --validate-config` accepts the member file as pg-1 renders it (only compose names unresolvable here)',
      async () => {
        const env = environmentOf(services['pg-1']);
        const work = mkdtempSync(path.join(os.tmpdir(), 'cas-compose-patroni-'));
        try {
          const file = path.join(work, 'patroni.yml');
          writeFileSync(file, memberFile(env), { mode: 0o600 });
          const result = await new Promise<{ code: number; output: string }>((resolve) =>
            execFile(
              PATRONI_BINARY,
              ['--validate-config', file],
              {
                env: {
                  PATH: process.env.PATH,
                  PATRONI_RESTAPI_LISTEN: env.PATRONI_RESTAPI_LISTEN,
                  PATRONI_POSTGRESQL_LISTEN: env.PATRONI_POSTGRESQL_LISTEN,
                },
              },
              (error, stdout, stderr) =>
                resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}`.trim() }),
            ),
          );
          // Nothing resolves etcd-1..3 outside compose's network: that complaint, and no other.
          const complaints = result.output.split('\n').filter((line) => line !== '');
          expect(
            complaints.filter(
              (line) =>
                !/^etcd3\.hosts \S+ didn't pass validation: \[Errno -[0-9]+\] (Name|Temporary failure)/.test(line),
            ),
            result.output,
          ).toEqual([]);
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      },
    );
  });

  it("HAProxy for PostgreSQL: Patroni's /primary on 5433 and /replica on 5434, its default servers the members", () => {
    const proxy = services['postgres-haproxy'];
    expect(proxy.volumes).toEqual([
      './deploy/patroni/haproxy-global.cfg:/usr/local/etc/haproxy/global.cfg:ro',
      './deploy/patroni/haproxy-postgres.cfg:/usr/local/etc/haproxy/postgres.cfg:ro',
    ]);
    expect(proxy.command).toEqual([
      'haproxy',
      '-f',
      '/usr/local/etc/haproxy/global.cfg',
      '-f',
      '/usr/local/etc/haproxy/postgres.cfg',
    ]);
    const text = readFileSync('deploy/patroni/haproxy-postgres.cfg', 'utf8');
    const listen = (name: string) =>
      new RegExp(`^listen ${name}\\n((?:[ \\t]+.*\\n|\\n(?=[ \\t]))*)`, 'm').exec(text)?.[1] ?? '';
    expect(listen('postgres')).toMatch(/bind "\$\{CAS_POSTGRES_LISTEN-:5433\}"/);
    expect(listen('postgres')).toMatch(/^\s*http-check send meth GET uri \/primary$/m);
    expect(listen('postgres-replica')).toMatch(/bind "\$\{CAS_POSTGRES_REPLICA_LISTEN-:5434\}"/);
    expect(listen('postgres-replica')).toMatch(/^\s*http-check send meth GET uri \/replica$/m);
    for (const section of [listen('postgres'), listen('postgres-replica')]) {
      const servers = [
        ...section.matchAll(/^\s*server \S+ "\$\{CAS_PG_\d-([^}]+)\}" check port "\$\{CAS_PATRONI_\d-(\d+)\}"/gm),
      ];
      expect(servers.map((match) => match[1])).toEqual(patroniMembers.map(([name]) => `${name}:5432`));
      expect(servers.map((match) => match[2])).toEqual(patroniMembers.map(() => '8008'));
    }
  });

  it('instances: ready on /readyz, after the migration, non-root and read-only, with only settings the service reads and accepts', () => {
    for (const [name, service] of instances) {
      expect(service.healthcheck.test.join(' '), name).toContain('/readyz');
      expect(service.depends_on.migrate.condition, name).toBe('service_completed_successfully');
      expect(service.read_only, name).toBe(true);
      expect(service.user, name).toMatch(/^[1-9]\d*:\d+$/);
      expect(service.restart, name).toBe('unless-stopped');
      const env = environmentOf(service);
      expect(
        Object.keys(env).filter((key) => !VARIABLES.has(key)),
        name,
      ).toEqual([]);
      env.API_TOKENS = SYNTHETIC_SECRETS['api-tokens']!;
      env.PII_KEYS = SYNTHETIC_SECRETS['pii-keys']!;
      env.PII_ACTIVE_KEY = SYNTHETIC_SECRETS['pii-active-key']!;
      env.PII_BLIND_INDEX_KEY = SYNTHETIC_SECRETS['pii-blind-index-key']!;
      expect(loadConfig(env), name).toMatchObject({ nodeEnv: 'production', port: 3000, runMigrationsOnStart: false });
      // Through HAProxy: the leader for writes, the replicas for lag-tolerant reads.
      expect(new URL(env.DATABASE_URL!)).toMatchObject({ hostname: 'postgres-haproxy', port: '5433' });
      expect(new URL(env.DATABASE_REPLICA_URL!)).toMatchObject({ hostname: 'postgres-haproxy', port: '5434' });
    }
  });

  it('the roles job, then the migration straight against the primary port, as the owner, without tokens or keys', () => {
    const roles = services['postgres-roles'];
    expect(roles.restart).toBe('no');
    expect(roles.entrypoint).toEqual(['/usr/local/bin/create-roles.sh']);
    expect(roles.volumes).toEqual([
      './deploy/patroni/create-roles.sh:/usr/local/bin/create-roles.sh:ro',
      './deploy/postgres/roles.sql:/etc/postgresql/roles.sql:ro',
    ]);
    expect(Object.keys(roles.environment).sort()).toEqual([
      'CAS_APP_PASSWORD',
      'CAS_OWNER_PASSWORD',
      'CAS_POSTGRES_PASSWORD',
    ]);
    const migrate = services.migrate;
    expect(migrate.command).toEqual(['node', 'dist/db/migrations/migrate-cli.js']);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on['postgres-roles'].condition).toBe('service_completed_successfully');
    const env = environmentOf(migrate);
    expect(Object.keys(env).sort()).toEqual(['DATABASE_URL', 'NODE_ENV']);
    expect(new URL(env.DATABASE_URL!)).toMatchObject({
      hostname: 'postgres-haproxy',
      port: '5433',
      username: 'cas_owner',
    });
    expect(loadConfig(env, { databaseOnly: true }).databasePreparedStatements).toBe(true);
  });

  it('no secret in the file: every password, token and key comes from the environment', () => {
    const text = readFileSync('compose.yaml', 'utf8');
    for (const match of text.matchAll(/^\s*(\w*(PASSWORD|TOKENS|KEYS?|_KEY))\s*:\s*(.*)$/gm))
      expect(match[3], match[1]).toMatch(/^\$\{CAS_[A-Z_]+:\?set CAS_[A-Z_]+\}$/);
    for (const match of text.matchAll(/postgresql:\/\/[^:]+:([^@]+)@/g))
      expect(match[1]).toMatch(/^\$\{CAS_[A-Z_]+:\?set CAS_[A-Z_]+\}$/);
  });

  it('every dependency waits on a real condition, and every mounted file exists', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {}) as [
        string,
        { condition: string },
      ][]) {
        expect(services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        if (condition === 'service_healthy')
          expect(
            services[dependency].healthcheck,
            `${dependency} (waited on by ${name}) needs a healthcheck`,
          ).toBeDefined();
        else expect(condition).toBe('service_completed_successfully');
      }
      for (const volume of (service.volumes ?? []) as string[]) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(source), `${name}: ${volume}`).toBe(true);
      }
    }
    for (const script of ['deploy/patroni/start-member.sh', 'deploy/patroni/create-roles.sh'])
      expect(statSync(script).mode & 0o111, `${script} is executable`).not.toBe(0);
  });

  it("HAProxy's default backends (deploy/haproxy.cfg) are the compose instances, on the port they listen on", () => {
    expect(services.haproxy.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    const backends = [
      ...readFileSync('deploy/haproxy.cfg', 'utf8').matchAll(/^\s*server\s+\S+\s+"\$\{CAS_BACKEND_\d-([^}]+)\}"/gm),
    ].map((match) => match[1]);
    expect(backends).toEqual(instances.map(([name, service]) => `${name}:${service.environment.PORT}`));
  });

  it.runIf(existsSync(HAPROXY_BINARY))(
    "`haproxy -c` accepts compose's PostgreSQL HAProxy configuration with its defaults",
    async () => {
      const result = await new Promise<{ code: number; output: string }>((resolve) =>
        execFile(
          HAPROXY_BINARY,
          ['-c', '-f', 'deploy/patroni/haproxy-global.cfg', '-f', 'deploy/patroni/haproxy-postgres.cfg'],
          { env: { PATH: process.env.PATH } },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        ),
      );
      expect(result.output).toContain('Configuration file is valid');
      expect(result.code, result.output).toBe(0);
      // The members' names resolve on compose's network only: those warnings, and no other.
      const warnings = result.output.split('\n').filter((line) => /WARNING|ALERT/.test(line));
      expect(warnings.filter((line) => !/could not resolve address 'pg-\d'/.test(line))).toEqual([]);
    },
  );
});

describe('deploy/haproxy.cfg', () => {
  const text = readFileSync('deploy/haproxy.cfg', 'utf8');
  const installed = existsSync(HAPROXY_BINARY);

  it('checks readiness on /readyz, retries refused connections elsewhere, and closes idle clients before the service does', () => {
    expect(text).toMatch(/^\s*option httpchk\s*$/m);
    expect(text).toMatch(/^\s*http-check send meth GET uri \/readyz\b/m);
    expect(text).toMatch(/^\s*http-check expect status 200\s*$/m);
    expect(text).toMatch(/^\s*default-server check\b/m);
    expect(text).toMatch(/^\s*retry-on conn-failure\s*$/m);
    expect(text).toMatch(/^\s*option redispatch\b/m);
    expect(text).toMatch(/^\s*default-server\b.*\bobserve layer4 error-limit 1 on-error mark-down\b/m);
    const clientTimeoutS = Number(/^\s*timeout client (\d+)s$/m.exec(text)?.[1]);
    expect(clientTimeoutS * 1000).toBeLessThan(loadConfig({}).keepAliveTimeoutMs);
  });

  it.runIf(!installed)(
    `is not checked by haproxy itself: ${HAPROXY_BINARY} is missing (apt-get install haproxy); CI installs it and must not skip this`,
    () => {
      expect(process.env.CI, `CI must install haproxy (.ci/run); ${HAPROXY_BINARY} is missing`).toBeFalsy();
    },
  );

  describe.skipIf(!installed)('with a real HAProxy', () => {
    let service: TestService | undefined;
    let haproxy: ChildProcess | undefined;
    const work = mkdtempSync(path.join(os.tmpdir(), 'cas-haproxy-'));
    afterAll(async () => {
      // Also when a test timed out before its own clean-up ran.
      if (haproxy && haproxy.exitCode === null && haproxy.signalCode === null) haproxy.kill('SIGKILL');
      await service?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it("`haproxy -c` accepts it, with the fleet's addresses and with compose's defaults", async () => {
      const check = (env: Record<string, string>) =>
        new Promise<{ code: number; output: string }>((resolve) =>
          execFile(
            HAPROXY_BINARY,
            ['-c', '-f', 'deploy/haproxy.cfg'],
            { env: { PATH: process.env.PATH, ...env } },
            (error, stdout, stderr) =>
              resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
          ),
        );
      const fleet = await check(fleetEnvironment(18080, [3101, 3102, 3103], 18404));
      expect(fleet.output).toContain('Configuration file is valid');
      expect(fleet.code).toBe(0);
      expect(fleet.output).not.toMatch(/WARNING|ALERT/);
      const composeDefaults = await check({ CAS_HAPROXY_SOCKET: path.join(work, 'defaults.sock') });
      expect(composeDefaults.code, composeDefaults.output).toBe(0);
    });

    it('marks the two closed ports down and the instance up by its /readyz checks, sends every request to the instance, and retries elsewhere what an instance refuses', async () => {
      service = await startTestService();
      const [listen, stats, down2, down3, postgres] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      const env = fleetEnvironment(listen, [service.port, down2, down3], stats, postgres);
      haproxy = spawn(HAPROXY_BINARY, ['-db', '-f', 'deploy/haproxy.cfg'], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let output = '';
      haproxy.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      try {
        await waitForPort(listen, () => output);
        // The checks on /readyz find the instance up and the two closed ports down (bounded wait).
        const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
        let states = '';
        while (Date.now() < deadline) {
          states = await adminCommand(env.CAS_HAPROXY_SOCKET!, 'show stat');
          if (
            /^cas,cas1,(?:[^,]*,){15}UP,/m.test(states) &&
            /^cas,cas2,(?:[^,]*,){15}DOWN/m.test(states) &&
            /^cas,cas3,(?:[^,]*,){15}DOWN/m.test(states)
          )
            break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(states, output).toMatch(/^cas,cas1,(?:[^,]*,){15}UP,/m);
        expect(states).toMatch(/^cas,cas2,(?:[^,]*,){15}DOWN/m);
        expect(states).toMatch(/^cas,cas3,(?:[^,]*,){15}DOWN/m);
        const answers = [];
        for (let i = 0; i < 30; i++) {
          const res = await fetch(
            `http://127.0.0.1:${listen}/sandbox/customer/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`,
            { headers: { authorization: `Bearer ${service.token}` } },
          );
          answers.push(res.status);
          await res.arrayBuffer();
        }
        // 404: the service answered (no such customer); never 503 from HAProxy ("no server available").
        expect(
          answers.filter((status) => status !== 404),
          output,
        ).toEqual([]);

        // An instance taken for up that refuses connections (one that stopped listening between two checks,
        // as in a rolling restart): its requests are retried on the instance that answers, and its first refusal
        // takes it out (observe layer4). Without that, six attempts once all alternated between the two.
        for (const server of ['cas2', 'cas3']) {
          for (const command of [`disable health cas/${server}`, `set server cas/${server} health up`])
            expect(await adminCommand(env.CAS_HAPROXY_SOCKET!, command)).toBe('\n');
        }
        const during = [];
        for (let i = 0; i < 30; i++) {
          const res = await fetch(
            `http://127.0.0.1:${listen}/sandbox/customer/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}`,
            { headers: { authorization: `Bearer ${service.token}` } },
          );
          during.push(res.status);
          await res.arrayBuffer();
        }
        expect(
          during.filter((status) => status !== 404),
          output,
        ).toEqual([]);
        // Columns of `show stat`: pxname, svname, …, wretr (16th), wredis (17th).
        const redispatched = (await adminCommand(env.CAS_HAPROXY_SOCKET!, 'show stat'))
          .split('\n')
          .filter((line) => /^cas,cas[23],/.test(line))
          .reduce((sum, line) => sum + Number(line.split(',')[16]), 0);
        expect(redispatched).toBeGreaterThan(0);
        const after = await adminCommand(env.CAS_HAPROXY_SOCKET!, 'show stat');
        expect(after, output).toMatch(/^cas,cas2,(?:[^,]*,){15}DOWN/m);
        expect(after, output).toMatch(/^cas,cas3,(?:[^,]*,){15}DOWN/m);
      } finally {
        const running = haproxy;
        running.kill('SIGTERM');
        await new Promise((resolve) => running.once('exit', resolve));
      }
    });

    function fleetEnvironment(
      listen: number,
      backends: number[],
      stats: number,
      postgres = listen + 1,
    ): Record<string, string> {
      return {
        CAS_LISTEN: `127.0.0.1:${listen}`,
        // The `postgres` listener's servers: nothing listens there in these tests (closed ports: checked down).
        CAS_POSTGRES_LISTEN: `127.0.0.1:${postgres}`,
        CAS_POSTGRES_PRIMARY: '127.0.0.1:1',
        CAS_POSTGRES_REPLICA: '127.0.0.1:2',
        ...Object.fromEntries(backends.map((port, i) => [`CAS_BACKEND_${i + 1}`, `127.0.0.1:${port}`])),
        CAS_HAPROXY_STATS: `127.0.0.1:${stats}`,
        CAS_HAPROXY_SOCKET: path.join(work, `admin-${listen}.sock`),
      };
    }
  });
});

async function waitForPort(port: number, output: () => string): Promise<void> {
  const deadline = Date.now() + HUNG_TEST_DEADLINE_MS;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`HAProxy did not listen on ${port}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One command on HAProxy's admin socket (what `socat stdio <socket>` does). */
function adminCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.once('end', () => resolve(answer));
    socket.once('error', reject);
  });
}
