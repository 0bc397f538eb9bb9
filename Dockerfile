# Server and worker image: `node dist/server.js` (which also serves the web console from ui/dist) or `node dist/worker.js`.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts=false
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/ui/dist ./ui/dist
# The attachment store's folder (compose mounts a volume here): the runtime user's, so a new volume is too.
RUN mkdir -p /data/attachments && chown node:node /data/attachments
USER node
EXPOSE 3000
CMD ["node", "dist/server.js"]
