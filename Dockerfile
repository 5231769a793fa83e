# storecheck in a container: the conformance suite, its embedded reference server included.
#
#   docker build -t storecheck .
#   docker run --rm -e STORE_API_KEY -v "$PWD/reports:/work/reports" storecheck \
#     --base-url https://staging.example.com --report-dir reports/staging
#
# The key comes from the environment (-e STORE_API_KEY passes the host's value through), never
# as a flag. Reports go to /work/reports (the working directory's reports/), so mount that folder.
# Only what the package ships at run time is copied (the package.json "files" list; a unit test,
# test/unit/package-files.test.ts, keeps the two in step), and only production dependencies.
FROM node:20-slim

ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

COPY bin/ bin/
COPY src/ src/
COPY suites/ suites/
COPY schemas/ schemas/
COPY generators/ generators/
COPY reference/ reference/
COPY vitest.config.ts tsconfig.json ./
RUN chmod 755 bin/storecheck.mjs && ln -s /app/bin/storecheck.mjs /usr/local/bin/storecheck \
 && mkdir /work && chown node:node /work

# the image's unprivileged user; /app stays root's and read-only to it (vitest caches go to /tmp)
USER node
WORKDIR /work
ENTRYPOINT ["storecheck"]
