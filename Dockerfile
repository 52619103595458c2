# Strand in a container: build with the toolchain, run on a slim image as a non-root user.
#   docker build -t strand .
#   docker run -p 6969:6969 -v strand-data:/data -e STRAND_API_KEY=$(openssl rand -hex 32) strand
# The bundled example project is served from /project; mount your own there:
#   docker run -p 6969:6969 -v "$PWD/my-graph:/project:ro" -v strand-data:/data -e STRAND_API_KEY=... strand

# Node 24 (LTS), pinned to the exact release so a rebuild gets the same runtime; bump it on purpose.
# Node 20, the base before, reached end of life on 2026-04-30.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
# hnswlib-node, lmdb (when no prebuilt binary fits) and Strand's own native module compile here.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
# npm ci runs `prepare`, which builds dist/; then drop the dev dependencies.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production
# glibc gives freed blocks back to the system: each open tenant's LMDB environment allocates a few
# MB, and with glibc's defaults what closed tenants freed stays in the process (README, Tenants).
ENV MALLOC_MMAP_THRESHOLD_=65536 MALLOC_TRIM_THRESHOLD_=65536
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Strand's native module (binding.gyp): gives back the memory idle tenants freed.
COPY --from=build /app/build/Release/strand_native.node ./build/Release/strand_native.node
COPY --from=build /app/templates ./templates
COPY --from=build /app/examples/social /project
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 6969
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:6969/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["node", "/app/dist/cli/strand.js"]
CMD ["serve", "/project", "--host", "0.0.0.0", "--port", "6969", "--data", "/data"]
