# The gateway as a container image: the build (dist/) and the prebuilt commands inside,
# production dependencies only, running as the unprivileged `node` user.
#   docker build -t content-api .
#   docker run -p 8787:8787 -e PUBLIC_URL=https://api.example.com -e STATE_STORE=redis \
#     -e REDIS_URL=redis://redis:6379 -e OAUTH_SIGNING_KEY=… -e WEBHOOK_SECRETS_KEY=… content-api
# docs/self-hosting.md has the rest (compose.yaml: two gateways, Redis and nginx).

# Stage 1: every dependency, the build of content/, the commands bundled (build/run.mjs), then
# the dev dependencies removed again.
FROM node:24-slim AS build
WORKDIR /app
ENV CI=true NPM_CONFIG_UPDATE_NOTIFIER=false
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build of content/ (REQUIRE_HISTORY is off: an image carries no git history) and the
# bundle of every command, made once here: the image never compiles TypeScript.
RUN node build/run.mjs cli build && node build/run.mjs keys --help >/dev/null \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf .cache/bin/*/.v8-cache .cache/bin/*.lock

# Stage 2: what runs. The same files, with their times kept (COPY --from does), so
# build/run.mjs finds the bundle it was made from instead of making another.
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DIST_DIR=/app/dist \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/contract ./contract
COPY --from=build /app/gateway ./gateway
COPY --from=build /app/tsconfig.json ./
# content/ too: at a scheduled release the gateway builds it again (gateway/schedule/) into dist/.
COPY --from=build /app/content ./content
COPY --from=build --chown=node:node /app/.cache ./.cache
COPY --from=build --chown=node:node /app/dist ./dist
# The reviewers' preview, beside dist/ and never inside it: the gateway serves it to reviewers only.
COPY --from=build --chown=node:node /app/dist-preview ./dist-preview
# The files store's folders (STATE_STORE=files, one machine): with dist/ and .cache/, where the gateway writes.
RUN mkdir -p gateway/.data gateway/.keys && chown node:node gateway/.data gateway/.keys
USER node
EXPOSE 8787
# Liveness, not readiness: a Redis outage must not get every gateway restarted (docs/self-hosting.md).
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The gateway's Node options are build/start.sh's (serve_flags: why there).
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "build/run.mjs", "serve"]
