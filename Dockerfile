# Limelight platform server: the reference app and the platform server, production build.
# See docs/deploy.md. Build: docker build -t limelight .
# Run (one process, embedded PGlite in /data): docker run -p 3000:3000 -v limelight-data:/data limelight
# Run several processes: add -e WORKERS=2 -e DATABASE_URL=postgres://...

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The locked tree, exactly (docs/deploy.md, "Locked installs"); no browsers needed here.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --config reference-app/vite.config.ts --logLevel warn \
 && node scripts/build-server.mjs --force

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    APP_DIR=/app/dist/app
# The bundle carries everything except the packages it leaves external (scripts/build-server.mjs):
# PGlite (WebAssembly and data files) and argon2 (a native addon with its platform package).
COPY --from=build /app/dist/app ./dist/app
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/node_modules/@electric-sql ./node_modules/@electric-sql
COPY --from=build /app/node_modules/@node-rs ./node_modules/@node-rs
# No dockerode: the container runner (CONTAINER_RUNNER=docker) runs on a host with the engine's
# socket, from a checkout (npm ci; npm start), not inside this image (docs/deploy.md).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1's child via tini-like --init in compose; SIGTERM drains requests (docs/deploy.md).
CMD ["node", "--enable-source-maps", "dist/server/main.mjs"]
