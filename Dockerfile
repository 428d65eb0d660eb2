# syntax=docker/dockerfile:1
# The gateway's image: compiled in a build stage, run by plain node as an unprivileged user.
# Build: docker build -t cs-slack-gateway .   Run: see "Container" in the README.

# One Node LTS major for both stages; the compiled code needs 22.13 or newer.
ARG NODE_MAJOR=24

FROM node:${NODE_MAJOR}-slim AS build
WORKDIR /app
# The lock file first, so a change to the sources alone reuses the installed dependencies.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-build-assets.mjs ./scripts/
COPY src ./src
RUN npm run build

# Noto Sans CJK, for the charts' text from the platform (group names) that their own font lacks: only
# its one file is copied into the image.
FROM node:${NODE_MAJOR}-slim AS fonts
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/*

FROM node:${NODE_MAJOR}-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, installed here: nothing of the build stage's node_modules comes along.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=fonts /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc /usr/share/fonts/opentype/noto/
# The only place the gateway writes: its SQLite state, on a volume the unprivileged user owns. The
# default STATE_PATH (./data) leads there too, for an env file that leaves STATE_PATH empty.
RUN mkdir /data && chown node:node /data && ln -s /data /app/data
ENV STATE_PATH=/data/gateway.sqlite \
    PORT=3000
VOLUME ["/data"]
EXPOSE 3000
# The app's files stay root's and read-only to the user the gateway runs as.
USER node
# node itself, no shell or curl: the slim image has neither wget nor curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`, { signal: AbortSignal.timeout(4000) }).then((response) => process.exit(response.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself, so the drain runs to its end.
CMD ["node", "dist/main.js"]
