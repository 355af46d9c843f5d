// What a Dockerfile puts into its image, everyone who pulls it can read back: a secret-named ENV or
// ARG, or a COPY of an env file or key, asks; ordinary build settings, copies of source and of another
// stage, and a secret mount do not.
import { policyTable } from './table';

const dockerfile = (content: string, file = 'Dockerfile') => ({ tool: 'Write', input: { file_path: file, content } });

const ORDINARY = [
  'FROM python:3.12-slim AS base',
  'ARG PIP_INDEX_URL=https://pypi.acme.internal/simple',
  'ENV PYTHONDONTWRITEBYTECODE=1 \\',
  '    PYTHONUNBUFFERED=1',
  'ENV RAILS_ENV=production BUNDLE_WITHOUT=development:test',
  'COPY requirements.txt .',
  'RUN --mount=type=secret,id=npm_token NPM_TOKEN=$(cat /run/secrets/npm_token) npm ci',
  'COPY --from=build /app/.env.production ./',
  'COPY . .',
  'CMD ["python", "-m", "app"]',
  '',
].join('\n');

policyTable('secret-baked-into-image', [
  {
    note: 'a build ARG carrying a registry token',
    spec: dockerfile(
      'FROM node:20-alpine\nARG NPM_TOKEN\nRUN echo "//npm.acme.internal/:_authToken=${NPM_TOKEN}" > .npmrc\n',
    ),
    expect: 'ask',
  },
  {
    note: 'an ENV holding a cloud secret key',
    spec: dockerfile('FROM node:20\nENV AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}\n', 'api.Dockerfile'),
    expect: 'ask',
  },
  {
    note: 'the older ENV form',
    spec: dockerfile('FROM node:20\nENV DATABASE_PASSWORD hunter2\n', 'Containerfile'),
    expect: 'ask',
  },
  {
    note: 'an edit that adds a COPY of the .env',
    spec: {
      tool: 'Edit',
      input: {
        file_path: 'Dockerfile',
        old_string: 'COPY src/ /app/src/\n',
        new_string: 'COPY src/ /app/src/\nCOPY .env /app/.env\n',
      },
    },
    expect: 'ask',
  },
  {
    note: 'ADD of an ssh key',
    spec: dockerfile('FROM alpine\nADD --chown=app id_ed25519 /home/app/.ssh/\n', 'Dockerfile.dev'),
    expect: 'ask',
  },
  {
    note: 'near miss: build settings, source copies, a secret mount, a stage copy',
    spec: dockerfile(ORDINARY),
    expect: null,
  },
  {
    note: 'near miss: an edit beside a secret-named ARG that was there already',
    spec: {
      tool: 'Edit',
      input: {
        file_path: 'Dockerfile',
        old_string: 'ARG NPM_TOKEN\nRUN npm ci\n',
        new_string: 'ARG NPM_TOKEN\nRUN npm ci --omit=dev\n',
      },
    },
    expect: null,
  },
  {
    note: 'near miss: an env template copied in',
    spec: dockerfile('FROM node:20\nCOPY .env.example .env\n'),
    expect: null,
  },
  {
    note: 'near miss: a document about Dockerfiles',
    spec: dockerfile('ARG NPM_TOKEN\n', 'Dockerfile.md'),
    expect: null,
  },
]);
