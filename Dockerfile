# syntax=docker/dockerfile:1
# The service's production image (docs/how-to/run-in-production.md, "Containers and Kubernetes"):
#   docker build -t customer-account-service:0.1.0 .
# Runs `node --max-semi-space-size=12 dist/main.js` (npm start's flags; docs/adr/0076) as uid 1000 on Node 26 LTS
# (.node-version), with only the compiled code, the production dependencies, the migrations and the GraphQL
# schema it reads at start. The migration job runs
# `node dist/db/migrations/migrate-cli.js` from the same image.
#
# Base image tag chosen, not pulled here (no registry access on this machine): pin its digest in your
# mirror, e.g. FROM node:26.10.0-bookworm-slim@sha256:<digest>. Checked by test/deploy/artifacts.test.ts.

FROM node:26.10.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The client workspace's manifest: npm ci installs the workspaces the lock file names.
COPY packages/client/package.json ./packages/client/
# npm 11 runs no dependency install scripts; nothing here needs them (Prisma's client is generated below).
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json prisma.config.ts schema.graphql ./
COPY prisma ./prisma
COPY scripts/prisma-generate.mjs scripts/build-console.mjs ./scripts/
COPY src ./src
COPY console ./console
# `prisma generate`, tsc, then the console's static build (dist/console, served at /console).
# scripts/prisma-generate.mjs points PRISMA_SCHEMA_ENGINE_BINARY at an existing
# file: generate never runs the schema engine but would otherwise try to download one (air-gapped builds).
RUN npm run build

FROM node:26.10.0-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
# The client workspace's manifest: npm ci installs the workspaces the lock file names.
COPY packages/client/package.json ./packages/client/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:26.10.0-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# Owned by root, run by uid 1000: the process cannot change its own code.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json schema.graphql ./
COPY prisma/migrations ./prisma/migrations
# The node image's unprivileged user, by number so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
# Liveness only (/healthz never queries the database); orchestrators route on /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=12", "dist/main.js"]
