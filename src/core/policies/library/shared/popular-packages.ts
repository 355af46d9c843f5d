// Widely used package names per registry: the names typosquats imitate. A name one typing slip away from
// one of these, and not itself on the list, is more likely an imitation than a package of its own.
// Hand-kept: each registry's most depended-on and most downloaded names, plus their common near
// neighbours that are real packages too (so that `request` beside `requests` is no look-alike).

export type Registry = 'npm' | 'pypi' | 'crates' | 'rubygems' | 'nuget' | 'pub';

const NPM = [
  ...['react', 'react-dom', 'react-router', 'react-router-dom', 'react-redux', 'redux', 'next', 'vue', 'vue-router'],
  ...['svelte', 'angular', 'preact', 'solid-js', 'astro', 'nuxt', 'gatsby', 'remix', 'express', 'koa', 'fastify'],
  ...['hono', 'axios', 'node-fetch', 'cross-fetch', 'got', 'request', 'superagent', 'undici', 'ky', 'lodash'],
  ...['lodash-es', 'underscore', 'ramda', 'moment', 'dayjs', 'date-fns', 'luxon', 'chalk', 'kleur', 'picocolors'],
  ...['colors', 'commander', 'yargs', 'minimist', 'inquirer', 'prompts', 'ora', 'debug', 'dotenv', 'cross-env'],
  ...['uuid', 'nanoid', 'zod', 'yup', 'joi', 'ajv', 'typescript', 'ts-node', 'tsx', 'tslib', 'esbuild', 'vite'],
  ...['vitest', 'webpack', 'webpack-cli', 'webpack-dev-server', 'rollup', 'parcel', 'babel-loader', 'ts-loader'],
  ...['css-loader', 'style-loader', 'sass', 'sass-loader', 'less', 'postcss', 'autoprefixer', 'tailwindcss'],
  ...['prettier', 'eslint', 'eslint-config-prettier', 'eslint-plugin-react', 'eslint-plugin-react-hooks'],
  ...['eslint-plugin-import', 'eslint-plugin-prettier', 'typescript-eslint', 'jest', 'mocha', 'chai', 'sinon'],
  ...['jasmine', 'karma', 'cypress', 'playwright', 'puppeteer', 'supertest', 'nock', 'msw', 'storybook'],
  ...['electron', 'electron-builder', 'electron-updater', 'electron-store', 'nodemon', 'concurrently', 'rimraf'],
  ...['mkdirp', 'glob', 'fast-glob', 'globby', 'minimatch', 'micromatch', 'chokidar', 'fs-extra', 'graceful-fs'],
  ...['semver', 'yaml', 'js-yaml', 'json5', 'qs', 'query-string', 'cookie', 'cookie-parser', 'body-parser'],
  ...['cors', 'helmet', 'morgan', 'multer', 'passport', 'jsonwebtoken', 'bcrypt', 'bcryptjs', 'argon2'],
  ...['mongoose', 'mongodb', 'mysql', 'mysql2', 'pg', 'sqlite3', 'better-sqlite3', 'redis', 'ioredis', 'knex'],
  ...['sequelize', 'typeorm', 'prisma', '@prisma/client', 'drizzle-orm', 'drizzle-kit', 'kysely', 'socket.io'],
  ...['socket.io-client', 'ws', 'graphql', 'apollo-server', '@apollo/client', 'graphql-tag', 'rxjs', 'immer'],
  ...['zustand', 'jotai', 'mobx', 'recoil', 'swr', '@tanstack/react-query', 'classnames', 'clsx'],
  ...['styled-components', '@emotion/react', '@emotion/styled', 'framer-motion', 'three', 'd3', 'chart.js'],
  ...['highlight.js', 'marked', 'markdown-it', 'sharp', 'jimp', 'canvas', 'pdfkit', 'xlsx', 'papaparse'],
  ...['cheerio', 'jsdom', 'winston', 'pino', 'bunyan', 'aws-sdk', '@aws-sdk/client-s3', 'firebase'],
  ...['firebase-admin', '@supabase/supabase-js', 'stripe', '@stripe/stripe-js', 'twilio', 'nodemailer'],
  ...['openai', '@anthropic-ai/sdk', 'langchain', 'husky', 'lint-staged', 'commitlint', 'semantic-release'],
  ...['lerna', 'turbo', 'nx', 'pnpm', 'yarn', 'npm', 'npm-run-all', 'serve', 'http-server', 'live-server'],
  ...['wrangler', 'vercel', 'netlify-cli', 'firebase-tools', '@types/node', '@types/react', '@types/react-dom'],
  ...['@types/express', '@types/jest', 'class-validator', 'class-transformer', 'reflect-metadata'],
  ...['@nestjs/core', '@nestjs/common', 'bluebird', 'async', 'core-js', 'regenerator-runtime', 'buffer'],
  ...['events', 'util', 'path', 'process', 'stream', 'crypto-js', 'node-forge', 'form-data', 'mime', 'mime-types'],
  ...['ejs', 'pug', 'handlebars', 'mustache', 'nunjucks', 'bootstrap', 'jquery', 'antd', '@mui/material'],
  ...['vue-loader', 'vuex', 'pinia', 'vuetify', 'quasar', 'ember-cli', 'backbone', 'polished'],
  ...['react-native', 'expo', 'react-hook-form', 'formik', 'i18next', 'react-i18next', 'web-vitals'],
  // Server sessions and the Salesforce platform's own tools.
  ...['express-session', 'connect-redis', 'jsforce', '@salesforce/cli', '@salesforce/sfdx-lwc-jest', 'sfdx-lwc-jest'],
  ...['@testing-library/react', '@testing-library/jest-dom', 'ts-jest', 'babel-jest', '@babel/core'],
  ...[
    '@babel/preset-env',
    '@babel/preset-react',
    'terser',
    'uglify-js',
    'html-webpack-plugin',
    'workbox-webpack-plugin',
  ],
  ...['puppeteer-core', 'playwright-core', '@playwright/test', 'vite-plugin-pwa', '@vitejs/plugin-react'],
  ...['sveltekit', '@sveltejs/kit', 'mongodb-memory-server', 'ioredis-mock', 'bull', 'bullmq', 'agenda'],
  ...['node-cron', 'cron', 'ethers', 'web3', 'viem', 'wagmi', 'hardhat', 'solc', 'truffle', 'ganache'],
  ...['esbuild-register', 'tsup', 'unbuild', '@changesets/cli', 'patch-package', 'cross-spawn'],
  ...['execa', 'shelljs', 'zx', 'node-gyp', 'prebuild-install', 'bindings', 'nan', 'node-addon-api'],
  // Real packages one slip from others above.
  ...['ms', 'mz', 'next-auth', 'nuxi', 'preact-render-to-string', 'vue-demi', 'react-is', 'redux-thunk'],
];

const PYPI = [
  ...['requests', 'urllib3', 'certifi', 'idna', 'charset-normalizer', 'httpx', 'aiohttp', 'httplib2', 'six'],
  ...['numpy', 'pandas', 'scipy', 'matplotlib', 'seaborn', 'plotly', 'scikit-learn', 'sklearn', 'statsmodels'],
  ...['tensorflow', 'keras', 'torch', 'torchvision', 'torchaudio', 'jax', 'jaxlib', 'transformers', 'datasets'],
  ...['tokenizers', 'accelerate', 'diffusers', 'huggingface-hub', 'safetensors', 'sentencepiece', 'openai'],
  ...['anthropic', 'langchain', 'llama-index', 'tiktoken', 'xgboost', 'lightgbm', 'catboost', 'opencv-python'],
  ...['pillow', 'imageio', 'scikit-image', 'django', 'djangorestframework', 'flask', 'fastapi', 'starlette'],
  ...['uvicorn', 'gunicorn', 'celery', 'redis', 'kombu', 'sqlalchemy', 'alembic', 'psycopg2', 'psycopg2-binary'],
  ...['psycopg', 'pymysql', 'mysqlclient', 'pymongo', 'motor', 'asyncpg', 'peewee', 'tortoise-orm', 'pydantic'],
  ...['pydantic-settings', 'marshmallow', 'attrs', 'dataclasses-json', 'pyyaml', 'toml', 'tomli', 'tomlkit'],
  ...['python-dotenv', 'click', 'typer', 'rich', 'colorama', 'tqdm', 'termcolor', 'tabulate', 'prompt-toolkit'],
  ...['jinja2', 'markupsafe', 'werkzeug', 'itsdangerous', 'beautifulsoup4', 'lxml', 'html5lib', 'scrapy'],
  ...['selenium', 'playwright', 'pytest', 'pytest-cov', 'pytest-mock', 'pytest-asyncio', 'pytest-xdist'],
  ...['coverage', 'tox', 'nox', 'mypy', 'black', 'isort', 'flake8', 'pylint', 'ruff', 'bandit', 'pre-commit'],
  ...['setuptools', 'wheel', 'pip', 'virtualenv', 'pipenv', 'poetry', 'twine', 'build', 'hatchling', 'flit'],
  ...['boto3', 'botocore', 's3transfer', 'awscli', 'google-cloud-storage', 'google-api-python-client'],
  ...['azure-storage-blob', 'azure-identity', 'paramiko', 'fabric', 'invoke', 'ansible', 'docker', 'kubernetes'],
  ...['cryptography', 'pyopenssl', 'pycryptodome', 'bcrypt', 'passlib', 'pyjwt', 'python-jose', 'oauthlib'],
  ...['requests-oauthlib', 'python-dateutil', 'pytz', 'tzdata', 'arrow', 'pendulum', 'networkx', 'sympy'],
  ...['numba', 'cython', 'dask', 'polars', 'pyarrow', 'duckdb', 'openpyxl', 'xlrd', 'xlsxwriter', 'jupyter'],
  ...['jupyterlab', 'notebook', 'ipython', 'ipykernel', 'ipywidgets', 'streamlit', 'gradio', 'dash', 'bokeh'],
  ...['loguru', 'structlog', 'sentry-sdk', 'prometheus-client', 'grpcio', 'protobuf', 'websockets', 'websocket-client'],
  ...['pyserial', 'psutil', 'watchdog', 'schedule', 'apscheduler', 'tenacity', 'backoff', 'cachetools', 'filelock'],
  ...['packaging', 'platformdirs', 'typing-extensions', 'mock', 'freezegun', 'faker', 'factory-boy', 'hypothesis'],
  ...['gevent', 'greenlet', 'eventlet', 'twisted', 'tornado', 'sanic', 'quart', 'aiofiles', 'anyio', 'trio'],
  ...['simplejson', 'ujson', 'orjson', 'msgpack', 'pymupdf', 'pypdf', 'reportlab', 'python-docx', 'nltk', 'spacy'],
  ...[
    'gensim',
    'mlflow',
    'wandb',
    'optuna',
    'ray',
    'airflow',
    'apache-airflow',
    'prefect',
    'dbt-core',
    'great-expectations',
  ],
  ...['simple-salesforce', 'salesforce-bulk', 'pyforce'],
  // Real packages one slip from others above.
  ...['request', 'pyyaml', 'toml', 'httpcore', 'h11', 'pytest-cov', 'attr', 'tox', 'nox'],
];

const CRATES = [
  ...['serde', 'serde_json', 'serde_derive', 'serde_yaml', 'toml', 'tokio', 'tokio-util', 'futures', 'async-trait'],
  ...['anyhow', 'thiserror', 'clap', 'structopt', 'log', 'env_logger', 'tracing', 'tracing-subscriber', 'rand'],
  ...['regex', 'lazy_static', 'once_cell', 'chrono', 'time', 'uuid', 'reqwest', 'hyper', 'axum', 'actix-web'],
  ...['rocket', 'warp', 'tower', 'tower-http', 'tonic', 'prost', 'sqlx', 'sqlx-cli', 'diesel', 'diesel_cli'],
  ...['sea-orm', 'rusqlite', 'redis', 'bytes', 'itertools', 'rayon', 'crossbeam', 'parking_lot', 'dashmap'],
  ...['indexmap', 'hashbrown', 'smallvec', 'bitflags', 'num', 'num-traits', 'libc', 'nix', 'syn', 'quote'],
  ...['proc-macro2', 'cc', 'bindgen', 'cmake', 'pkg-config', 'walkdir', 'glob', 'tempfile', 'dirs', 'directories'],
  ...['base64', 'hex', 'sha2', 'md-5', 'ring', 'rustls', 'openssl', 'native-tls', 'url', 'http', 'mime'],
  ...['image', 'wasm-bindgen', 'wasm-pack', 'web-sys', 'js-sys', 'tauri', 'tauri-cli', 'egui', 'bevy', 'winit'],
  ...['criterion', 'proptest', 'quickcheck', 'insta', 'mockall', 'cargo-edit', 'cargo-watch', 'cargo-nextest'],
  ...['cargo-audit', 'cargo-deny', 'cargo-dist', 'cargo-make', 'cargo-expand', 'cargo-udeps', 'sccache', 'ripgrep'],
  ...['bat', 'fd-find', 'exa', 'zoxide', 'starship', 'just', 'mdbook', 'wasm-opt', 'trunk', 'leptos', 'yew'],
];

const RUBYGEMS = [
  ...['rails', 'rake', 'bundler', 'rack', 'rspec', 'rspec-rails', 'minitest', 'puma', 'unicorn', 'sidekiq'],
  ...['devise', 'pundit', 'cancancan', 'nokogiri', 'json', 'activesupport', 'activerecord', 'actionpack'],
  ...['pg', 'mysql2', 'sqlite3', 'redis', 'faraday', 'httparty', 'rest-client', 'rubocop', 'rubocop-rails'],
  ...['pry', 'byebug', 'capybara', 'selenium-webdriver', 'factory_bot', 'factory_bot_rails', 'faker'],
  ...['sinatra', 'thor', 'dotenv', 'dotenv-rails', 'jbuilder', 'sprockets', 'sass-rails', 'webpacker'],
  ...['jekyll', 'cocoapods', 'fastlane', 'aws-sdk-s3', 'kaminari', 'will_paginate', 'paperclip', 'carrierwave'],
];

const NUGET = [
  ...['Newtonsoft.Json', 'Serilog', 'Serilog.AspNetCore', 'NLog', 'AutoMapper', 'Dapper', 'Polly', 'MediatR'],
  ...['FluentValidation', 'xunit', 'xunit.runner.visualstudio', 'NUnit', 'MSTest.TestFramework', 'Moq'],
  ...['FluentAssertions', 'Swashbuckle.AspNetCore', 'Microsoft.EntityFrameworkCore', 'dotnet-ef'],
  ...['Microsoft.EntityFrameworkCore.SqlServer', 'Microsoft.EntityFrameworkCore.Design', 'Npgsql'],
  ...['Npgsql.EntityFrameworkCore.PostgreSQL', 'StackExchange.Redis', 'RestSharp', 'Hangfire', 'Bogus'],
  ...['Azure.Identity', 'Azure.Storage.Blobs', 'AWSSDK.S3', 'Grpc.AspNetCore', 'Google.Protobuf', 'CsvHelper'],
];

// Dart and Flutter's most depended-on packages.
const PUB = [
  ...['flutter_secure_storage', 'shared_preferences', 'path_provider', 'url_launcher', 'image_picker'],
  ...['freezed', 'freezed_annotation', 'json_serializable', 'json_annotation', 'build_runner', 'provider'],
  ...['riverpod', 'flutter_riverpod', 'hooks_riverpod', 'flutter_bloc', 'equatable', 'get_it', 'injectable'],
  ...['go_router', 'auto_route', 'intl', 'collection', 'mocktail', 'mockito', 'flutter_lints', 'logger'],
  ...['very_good_analysis', 'cached_network_image', 'sqflite', 'hive', 'hive_flutter', 'isar', 'rxdart'],
  ...['firebase_core', 'firebase_auth', 'cloud_firestore', 'firebase_messaging', 'firebase_crashlytics'],
  ...['firebase_analytics', 'firebase_storage', 'firebase_remote_config', 'cloud_functions', 'google_sign_in'],
  ...['connectivity_plus', 'device_info_plus', 'package_info_plus', 'permission_handler', 'local_auth'],
  ...['google_fonts', 'flutter_svg', 'geolocator', 'flutter_dotenv', 'sentry_flutter', 'webview_flutter'],
  ...['flutter_local_notifications', 'in_app_purchase', 'sign_in_with_apple', 'encrypt', 'crypto', 'uuid'],
  ...['pointycastle', 'retrofit', 'chopper', 'lottie', 'melos', 'mason', 'envied', 'camera', 'dartz', 'fpdart'],
];

const BY_REGISTRY: Record<Registry, readonly string[]> = {
  npm: NPM,
  pypi: PYPI,
  crates: CRATES,
  rubygems: RUBYGEMS,
  nuget: NUGET,
  pub: PUB,
};

/** A name as the registry compares names: PyPI folds case and `-`/`_`/`.`, Cargo's registry `-`/`_`, NuGet case. */
export function canonicalPackageName(registry: Registry, name: string): string {
  const lower = name.toLowerCase();
  if (registry === 'pypi') return lower.replace(/[-_.]+/g, '-');
  if (registry === 'crates') return lower.replace(/_/g, '-');
  return lower;
}

const POPULAR = new Map(
  Object.entries(BY_REGISTRY).map(([registry, names]) => [
    registry as Registry,
    new Set(names.map((name) => canonicalPackageName(registry as Registry, name))),
  ]),
);

export function popularPackages(registry: Registry): ReadonlySet<string> {
  return POPULAR.get(registry) ?? new Set();
}
