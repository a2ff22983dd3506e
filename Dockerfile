# Vouchreel: one image for every role (ROLE=all|api|worker). See docs/deployment.md.
# Build: docker build -t vouchreel .    Run: docker run --env-file .env -p 3000:3000 vouchreel
# (production: JWT_SECRET from `openssl rand -hex 32`, APP_URL; docs/deployment.md lists the rest)

# ---- build: web app (Vite) and server (tsc), then production dependencies only
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The prune keeps typescript as an optional peer of i18next (its types only; nothing loads it at run time).
RUN npm run build && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver

# ---- run
FROM node:20-bookworm-slim
# ffmpeg/ffprobe: uploads are checked by ffprobe on API processes, renders run ffmpeg on workers.
# pocketsphinx: the offline transcription engine (English), used when TRANSCRIBE_URL is not set.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/vouchreel && chown node:node /var/lib/vouchreel
# HOST: a container listens on every interface (outside production the app defaults to 127.0.0.1).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/vouchreel \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/server/db/migrations ./src/server/db/migrations
USER node
EXPOSE 3000
# With S3 and PostgreSQL configured, DATA_DIR holds only temporary files of requests and jobs.
VOLUME ["/var/lib/vouchreel"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# tini forwards SIGTERM, so requests and jobs in flight finish (or are handed back) before exit.
ENTRYPOINT ["tini", "--"]
CMD ["node", "dist/node/server/main.js"]
