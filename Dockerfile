# Limelight platform server: the reference app and the platform server, production build.
# See docs/deploy.md ("Container"). Build: docker build -t limelight .
# Run (one process, embedded PGlite in /data): docker run -p 3000:3000 -v limelight-data:/data limelight
# Run several processes: add -e WORKERS=2 -e DATABASE_URL=postgres://...
# Where no registry is reachable, make the base image from this machine's Node first and pass it:
#   podman build --build-arg NODE_IMAGE=$(node scripts/node-image.mjs) -t limelight .
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The workspaces' manifests first, so the install layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY reference-app/package.json reference-app/
COPY packages/client/package.json packages/client/
# The locked tree, exactly (docs/deploy.md, "Locked installs"); no browsers needed here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN npm ci --no-audit --no-fund --prefer-offline
COPY . .
RUN npx vite build --config reference-app/vite.config.ts --logLevel warn \
 && node scripts/build-server.mjs --force

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    APP_DIR=/app/dist/app
# The server's own dependencies (reference-app/package.json), locked: whatever the bundle leaves
# external (scripts/build-server.mjs: PGlite, argon2, sharp, jimp, dockerode) is installed here,
# so the image cannot fall behind the bundle. No install scripts: every native part is a
# prebuilt platform package.
COPY package.json package-lock.json ./
COPY reference-app/package.json reference-app/
COPY packages/client/package.json packages/client/
RUN npm ci --omit=dev --ignore-scripts --workspace @limelight/reference-app \
      --no-audit --no-fund --prefer-offline && npm cache clean --force
COPY --from=build /app/dist/app ./dist/app
COPY --from=build /app/dist/server ./dist/server
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1's child via tini-like --init in compose; SIGTERM drains requests (docs/deploy.md).
CMD ["node", "--enable-source-maps", "dist/server/main.mjs"]
