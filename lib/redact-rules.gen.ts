// Secret rules converted from gitleaks' config/gitleaks.toml by scripts/gen-secret-rules.ts: do not edit; re-run it.
/*
 * Source: https://github.com/gitleaks/gitleaks/blob/b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b/config/gitleaks.toml
 * (gitleaks commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b; a copy is test/fixtures/secrets/gitleaks.toml).
 * Regenerate: node --import tsx scripts/gen-secret-rules.ts test/fixtures/secrets/gitleaks.toml
 *
 * The rules are gitleaks', MIT License, Copyright (c) 2019 Zachary Rice: permission is granted, free of
 * charge, to deal in the Software without restriction, provided this notice is included in all
 * copies or substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF
 * ANY KIND. Full text: test/fixtures/secrets/gitleaks.LICENSE.
 *
 * Go (RE2) to JS: a (?i) over the whole regex is the i flag; (?i:…), (?-i:…) or a later (?i) spell
 * out the letters they cover ([aA]); `.` is [^\n] ([\s\S] under (?s)); \z is $; named groups are
 * numbered ones; a leading lazy [\w.-]{0,N}? is taken off (prefix: N) and put back when an allowlist
 * reads the match. A path-scoped rule is skipped: redacted text has no file path.
 *
 * Converted 217 of 222 rules; skipped 5:
 *   - freemius-secret-key: applies only to files whose path matches (?i)\.php$; redacted text has no path
 *   - hashicorp-tf-password: applies only to files whose path matches (?i)\.(?:tf|hcl)$; redacted text has no path
 *   - kubernetes-secret-yaml: applies only to files whose path matches (?i)\.ya?ml$; redacted text has no path
 *   - nuget-config-password: applies only to files whose path matches (?i)nuget\.config$; redacted text has no path
 *   - pkcs12-file: path-only rule: matches file names, and redacted text has none
 * Left out of allowlists:
 *   - generic-api-key: an AND allowlist with paths or commits never applies to text (dropped)
 */

import type { GitleaksAllowlist, GitleaksRule } from './redact-rule';

export const GITLEAKS_COMMIT = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b";

export type GitleaksRuleId =
  | "1password-secret-key"
  | "1password-service-account-token"
  | "adafruit-api-key"
  | "adobe-client-id"
  | "adobe-client-secret"
  | "age-secret-key"
  | "airtable-api-key"
  | "airtable-personnal-access-token"
  | "algolia-api-key"
  | "alibaba-access-key-id"
  | "alibaba-secret-key"
  | "anthropic-admin-api-key"
  | "anthropic-api-key"
  | "artifactory-api-key"
  | "artifactory-reference-token"
  | "asana-client-id"
  | "asana-client-secret"
  | "atlassian-api-token"
  | "authress-service-client-access-key"
  | "aws-access-token"
  | "aws-amazon-bedrock-api-key-long-lived"
  | "aws-amazon-bedrock-api-key-short-lived"
  | "azure-ad-client-secret"
  | "beamer-api-token"
  | "bitbucket-client-id"
  | "bitbucket-client-secret"
  | "bittrex-access-key"
  | "bittrex-secret-key"
  | "cisco-meraki-api-key"
  | "clickhouse-cloud-api-secret-key"
  | "clojars-api-token"
  | "cloudflare-api-key"
  | "cloudflare-global-api-key"
  | "cloudflare-origin-ca-key"
  | "codecov-access-token"
  | "cohere-api-token"
  | "coinbase-access-token"
  | "confluent-access-token"
  | "confluent-secret-key"
  | "contentful-delivery-api-token"
  | "curl-auth-header"
  | "curl-auth-user"
  | "databricks-api-token"
  | "datadog-access-token"
  | "defined-networking-api-token"
  | "digitalocean-access-token"
  | "digitalocean-pat"
  | "digitalocean-refresh-token"
  | "discord-api-token"
  | "discord-client-id"
  | "discord-client-secret"
  | "doppler-api-token"
  | "droneci-access-token"
  | "dropbox-api-token"
  | "dropbox-long-lived-api-token"
  | "dropbox-short-lived-api-token"
  | "duffel-api-token"
  | "dynatrace-api-token"
  | "easypost-api-token"
  | "easypost-test-api-token"
  | "etsy-access-token"
  | "facebook-access-token"
  | "facebook-page-access-token"
  | "facebook-secret"
  | "fastly-api-token"
  | "finicity-api-token"
  | "finicity-client-secret"
  | "finnhub-access-token"
  | "flickr-access-token"
  | "flutterwave-encryption-key"
  | "flutterwave-public-key"
  | "flutterwave-secret-key"
  | "flyio-access-token"
  | "frameio-api-token"
  | "freshbooks-access-token"
  | "gcp-api-key"
  | "generic-api-key"
  | "github-app-token"
  | "github-fine-grained-pat"
  | "github-oauth"
  | "github-pat"
  | "github-refresh-token"
  | "gitlab-cicd-job-token"
  | "gitlab-deploy-token"
  | "gitlab-feature-flag-client-token"
  | "gitlab-feed-token"
  | "gitlab-incoming-mail-token"
  | "gitlab-kubernetes-agent-token"
  | "gitlab-oauth-app-secret"
  | "gitlab-pat"
  | "gitlab-pat-routable"
  | "gitlab-ptt"
  | "gitlab-rrt"
  | "gitlab-runner-authentication-token"
  | "gitlab-runner-authentication-token-routable"
  | "gitlab-scim-token"
  | "gitlab-session-cookie"
  | "gitter-access-token"
  | "gocardless-api-token"
  | "grafana-api-key"
  | "grafana-cloud-api-token"
  | "grafana-service-account-token"
  | "harness-api-key"
  | "hashicorp-tf-api-token"
  | "heroku-api-key"
  | "heroku-api-key-v2"
  | "hubspot-api-key"
  | "huggingface-access-token"
  | "huggingface-organization-api-token"
  | "infracost-api-token"
  | "intercom-api-key"
  | "intra42-client-secret"
  | "jfrog-api-key"
  | "jfrog-identity-token"
  | "jwt"
  | "jwt-base64"
  | "kraken-access-token"
  | "kucoin-access-token"
  | "kucoin-secret-key"
  | "launchdarkly-access-token"
  | "linear-api-key"
  | "linear-client-secret"
  | "linkedin-client-id"
  | "linkedin-client-secret"
  | "lob-api-key"
  | "lob-pub-api-key"
  | "looker-client-id"
  | "looker-client-secret"
  | "mailchimp-api-key"
  | "mailgun-private-api-token"
  | "mailgun-pub-key"
  | "mailgun-signing-key"
  | "mapbox-api-token"
  | "mattermost-access-token"
  | "maxmind-license-key"
  | "messagebird-api-token"
  | "messagebird-client-id"
  | "microsoft-teams-webhook"
  | "netlify-access-token"
  | "new-relic-browser-api-token"
  | "new-relic-insert-key"
  | "new-relic-user-api-id"
  | "new-relic-user-api-key"
  | "notion-api-token"
  | "npm-access-token"
  | "nytimes-access-token"
  | "octopus-deploy-api-key"
  | "okta-access-token"
  | "openai-api-key"
  | "openshift-user-token"
  | "perplexity-api-key"
  | "plaid-api-token"
  | "plaid-client-id"
  | "plaid-secret-key"
  | "planetscale-api-token"
  | "planetscale-oauth-token"
  | "planetscale-password"
  | "postman-api-token"
  | "prefect-api-token"
  | "private-key"
  | "privateai-api-token"
  | "pulumi-api-token"
  | "pypi-upload-token"
  | "rapidapi-access-token"
  | "readme-api-token"
  | "rubygems-api-token"
  | "scalingo-api-token"
  | "sendbird-access-id"
  | "sendbird-access-token"
  | "sendgrid-api-token"
  | "sendinblue-api-token"
  | "sentry-access-token"
  | "sentry-org-token"
  | "sentry-user-token"
  | "settlemint-application-access-token"
  | "settlemint-personal-access-token"
  | "settlemint-service-access-token"
  | "shippo-api-token"
  | "shopify-access-token"
  | "shopify-custom-access-token"
  | "shopify-private-app-access-token"
  | "shopify-shared-secret"
  | "sidekiq-secret"
  | "sidekiq-sensitive-url"
  | "slack-app-token"
  | "slack-bot-token"
  | "slack-config-access-token"
  | "slack-config-refresh-token"
  | "slack-legacy-bot-token"
  | "slack-legacy-token"
  | "slack-legacy-workspace-token"
  | "slack-user-token"
  | "slack-webhook-url"
  | "snyk-api-token"
  | "sonar-api-token"
  | "sourcegraph-access-token"
  | "square-access-token"
  | "squarespace-access-token"
  | "stripe-access-token"
  | "sumologic-access-id"
  | "sumologic-access-token"
  | "telegram-bot-api-token"
  | "travisci-access-token"
  | "twilio-api-key"
  | "twitch-api-token"
  | "twitter-access-secret"
  | "twitter-access-token"
  | "twitter-api-key"
  | "twitter-api-secret"
  | "twitter-bearer-token"
  | "typeform-api-token"
  | "vault-batch-token"
  | "vault-service-token"
  | "yandex-access-token"
  | "yandex-api-key"
  | "yandex-aws-access-token"
  | "zendesk-secret-key";

export const GITLEAKS_SKIPPED: ReadonlyArray<{ id: string; reason: string }> = [
  { id: "freemius-secret-key", reason: "applies only to files whose path matches (?i)\\.php$; redacted text has no path" },
  { id: "hashicorp-tf-password", reason: "applies only to files whose path matches (?i)\\.(?:tf|hcl)$; redacted text has no path" },
  { id: "kubernetes-secret-yaml", reason: "applies only to files whose path matches (?i)\\.ya?ml$; redacted text has no path" },
  { id: "nuget-config-password", reason: "applies only to files whose path matches (?i)nuget\\.config$; redacted text has no path" },
  { id: "pkcs12-file", reason: "path-only rule: matches file names, and redacted text has none" },
];

export const GITLEAKS_GLOBAL_ALLOWLISTS: readonly GitleaksAllowlist[] = [
  {
    target: "secret",
    and: false,
    regexes: [{ source: "^true|false|null$", flags: "i" }, { source: "^(?:a+|b+|c+|d+|e+|f+|g+|h+|i+|j+|k+|l+|m+|n+|o+|p+|q+|r+|s+|t+|u+|v+|w+|x+|y+|z+|\\*+|\\.+)$", flags: "i" }, { source: "^\\$(?:\\d+|{\\d+})$", flags: "" }, { source: "^\\$(?:[A-Z_]+|[a-z_]+)$", flags: "" }, { source: "^\\${(?:[A-Z_]+|[a-z_]+)}$", flags: "" }, { source: "^\\{\\{[ \\t]*[\\w ().|]+[ \\t]*}}$", flags: "" }, { source: "^\\$\\{\\{[ \\t]*(?:(?:env|github|secrets|vars)(?:\\.[A-Za-z]\\w+)+[\\w \"'&./=|]*)[ \\t]*}}$", flags: "" }, { source: "^%(?:[A-Z_]+|[a-z_]+)%$", flags: "" }, { source: "^%[+\\-# 0]?[bcdeEfFgGoOpqstTUvxX]$", flags: "" }, { source: "^\\{\\d{0,2}}$", flags: "" }, { source: "^@(?:[A-Z_]+|[a-z_]+)@$", flags: "" }, { source: "^/Users/[a-z0-9A-Z]+/[\\w .-/]+$", flags: "" }, { source: "^/(?:bin|etc|home|opt|tmp|usr|var)/[\\w ./\\-]+$", flags: "" }],
    stopwords: ["014df517-39d1-4453-b7b3-9930c563627c", "abcdefghijklmnopqrstuvwxyz"],
  },
];

let rules: ReadonlyArray<GitleaksRule<GitleaksRuleId>> | undefined;

/** The rules, made on the first call: evaluated at import, they would cost every forge command, most of which redact nothing. */
export function gitleaksRules(): ReadonlyArray<GitleaksRule<GitleaksRuleId>> {
  rules ??= [
    {
      id: "1password-secret-key",
      regex: { source: "\\bA3-[A-Z0-9]{6}-(?:(?:[A-Z0-9]{11})|(?:[A-Z0-9]{6}-[A-Z0-9]{5}))-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["a3-"],
      entropy: 3.8,
      allowlists: [],
    },
    {
      id: "1password-service-account-token",
      regex: { source: "ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ops_"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "adafruit-api-key",
      regex: { source: "(?:adafruit)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["adafruit"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "adobe-client-id",
      regex: { source: "(?:adobe)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["adobe"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "adobe-client-secret",
      regex: { source: "\\b(p8e-[a-z0-9A-Z]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["p8e-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "age-secret-key",
      regex: { source: "AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["age-secret-key-1"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "airtable-api-key",
      regex: { source: "(?:airtable)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{17})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["airtable"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "airtable-personnal-access-token",
      regex: { source: "\\b(pat[0-9A-Za-z]{14}\\.[a-f0-9]{64})\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["airtable"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "algolia-api-key",
      regex: { source: "(?:algolia)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["algolia"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "alibaba-access-key-id",
      regex: { source: "\\b(LTAI[a-z0-9A-Z]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ltai"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "alibaba-secret-key",
      regex: { source: "(?:alibaba)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["alibaba"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "anthropic-admin-api-key",
      regex: { source: "\\b(sk-ant-admin01-[a-zA-Z0-9_\\-]{93}AA)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sk-ant-admin01"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "anthropic-api-key",
      regex: { source: "\\b(sk-ant-api03-[a-zA-Z0-9_\\-]{93}AA)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sk-ant-api03"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "artifactory-api-key",
      regex: { source: "\\bAKCp[A-Za-z0-9]{69}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["akcp"],
      entropy: 4.5,
      allowlists: [],
    },
    {
      id: "artifactory-reference-token",
      regex: { source: "\\bcmVmd[A-Za-z0-9]{59}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["cmvmd"],
      entropy: 4.5,
      allowlists: [],
    },
    {
      id: "asana-client-id",
      regex: { source: "(?:asana)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["asana"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "asana-client-secret",
      regex: { source: "(?:asana)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["asana"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "atlassian-api-token",
      regex: { source: "(?:(?:ATLASSIAN|[Aa]tlassian)|(?:CONFLUENCE|[Cc]onfluence)|(?:JIRA|[Jj]ira))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9A-Z]{20}[a-f0-9A-F]{4})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)|\\b([Aa][Tt][Aa][Tt][Tt]3[A-Za-z0-9_\\-=]{186})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["atlassian", "confluence", "jira", "atatt3"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "authress-service-client-access-key",
      regex: { source: "\\b((?:sc|ext|scauth|authress)_[a-z0-9A-Z]{5,30}\\.[a-z0-9A-Z]{4,6}\\.(?:acc)[_\\-][a-z0-9\\-A-Z]{10,32}\\.[a-z0-9+/_=\\-A-Z]{30,120})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sc_", "ext_", "scauth_", "authress_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "aws-access-token",
      regex: { source: "\\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["a3t", "akia", "asia", "abia", "acca"],
      entropy: 3,
      allowlists: [
        {
          target: "secret",
          and: false,
          regexes: [{ source: "[^\\n]+EXAMPLE$", flags: "" }],
          stopwords: [],
        },
      ],
    },
    {
      id: "aws-amazon-bedrock-api-key-long-lived",
      regex: { source: "\\b(ABSK[A-Za-z0-9+/]{109,269}={0,2})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["absk"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "aws-amazon-bedrock-api-key-short-lived",
      regex: { source: "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["bedrock-api-key-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "azure-ad-client-secret",
      regex: { source: "(?:^|[\\\\'\"\\x60\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.\\-]{31,34})(?:$|[\\\\'\"\\x60\\s<),])", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["q~"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "beamer-api-token",
      regex: { source: "(?:beamer)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(b_[a-z0-9=_\\-]{44})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["beamer"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "bitbucket-client-id",
      regex: { source: "(?:bitbucket)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["bitbucket"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "bitbucket-client-secret",
      regex: { source: "(?:bitbucket)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["bitbucket"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "bittrex-access-key",
      regex: { source: "(?:bittrex)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["bittrex"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "bittrex-secret-key",
      regex: { source: "(?:bittrex)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["bittrex"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "cisco-meraki-api-key",
      regex: { source: "(?:[\\w.\\-]{0,50}?(?:(?:[Mm]eraki|MERAKI))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["meraki"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "clickhouse-cloud-api-secret-key",
      regex: { source: "\\b(4b1d[A-Za-z0-9]{38})\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["4b1d"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "clojars-api-token",
      regex: { source: "CLOJARS_[a-z0-9]{60}", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["clojars_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "cloudflare-api-key",
      regex: { source: "(?:cloudflare)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["cloudflare"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "cloudflare-global-api-key",
      regex: { source: "(?:cloudflare)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{37})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["cloudflare"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "cloudflare-origin-ca-key",
      regex: { source: "\\b(v1\\.0-[a-f0-9]{24}-[a-f0-9]{146})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["cloudflare", "v1.0-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "codecov-access-token",
      regex: { source: "(?:codecov)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["codecov"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "cohere-api-token",
      regex: { source: "(?:[\\w.\\-]{0,50}?(?:[cC][oO][hH][eE][rR][eE]|[Cc][Oo]_[Aa][Pp][Ii]_[Kk][Ee][Yy])(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-zA-Z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["cohere", "co_api_key"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "coinbase-access-token",
      regex: { source: "(?:coinbase)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_\\-]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["coinbase"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "confluent-access-token",
      regex: { source: "(?:confluent)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["confluent"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "confluent-secret-key",
      regex: { source: "(?:confluent)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["confluent"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "contentful-delivery-api-token",
      regex: { source: "(?:contentful)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["contentful"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "curl-auth-header",
      regex: { source: "\\bcurl\\b(?:[^\\n]*?|[^\\n]*?(?:[\\r\\n]{1,2}[^\\n]*?){1,5})[ \\t\\n\\r](?:-H|--header)(?:=|[ \\t]{0,5})(?:\"(?:[Aa][uU][tT][hH][oO][rR][iI][zZ][aA][tT][iI][oO][nN]:[ \\t]{0,5}(?:[Bb][aA][sS][iI][cC][ \\t]([a-z0-9+/A-Z]{8,}={0,3})|(?:[Bb][eE][aA][rR][eE][rR]|(?:[Aa][pP][iI]-)?[Tt][oO][kK][eE][nN])[ \\t]([\\w=~@.+/\\-]{8,})|([\\w=~@.+/\\-]{8,}))|(?:(?:[Xx]-(?:[a-zA-Z]+-)?)?(?:[Aa][pP][iI]-?)?(?:[Kk][eE][yY]|[Tt][oO][kK][eE][nN])):[ \\t]{0,5}([\\w=~@.+/\\-]{8,}))\"|'(?:[Aa][uU][tT][hH][oO][rR][iI][zZ][aA][tT][iI][oO][nN]:[ \\t]{0,5}(?:[Bb][aA][sS][iI][cC][ \\t]([a-z0-9+/A-Z]{8,}={0,3})|(?:[Bb][eE][aA][rR][eE][rR]|(?:[Aa][pP][iI]-)?[Tt][oO][kK][eE][nN])[ \\t]([\\w=~@.+/\\-]{8,})|([\\w=~@.+/\\-]{8,}))|(?:(?:[Xx]-(?:[a-zA-Z]+-)?)?(?:[Aa][pP][iI]-?)?(?:[Kk][eE][yY]|[Tt][oO][kK][eE][nN])):[ \\t]{0,5}([\\w=~@.+/\\-]{8,}))')(?:\\B|\\s|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["curl"],
      entropy: 2.75,
      allowlists: [],
    },
    {
      id: "curl-auth-user",
      regex: { source: "\\bcurl\\b(?:[^\\n]*|[^\\n]*(?:[\\r\\n]{1,2}[^\\n]*){1,5})[ \\t\\n\\r](?:-u|--user)(?:=|[ \\t]{0,5})(\"(:[^\"]{3,}|[^:\"]{3,}:|[^:\"]{3,}:[^\"]{3,})\"|'([^:']{3,}:[^']{3,})'|((?:\"[^\"]{3,}\"|'[^']{3,}'|[\\w$@.\\-]+):(?:\"[^\"]{3,}\"|'[^']{3,}'|[\\w${}@.\\-]+)))(?:\\s|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["curl"],
      entropy: 2,
      allowlists: [
        {
          target: "secret",
          and: false,
          regexes: [{ source: "[^:]+:(?:change(?:it|me)|pass(?:word)?|pwd|test|token|\\*+|x+)", flags: "" }, { source: "['\"]?<[^>]+>['\"]?:['\"]?<[^>]+>|<[^:]+:[^>]+>['\"]?", flags: "" }, { source: "[^:]+:\\[[^\\]]+]", flags: "" }, { source: "['\"]?[^:]+['\"]?:['\"]?\\$(?:\\d|\\w+|\\{(?:\\d|\\w+)})['\"]?", flags: "" }, { source: "\\$\\([^)]+\\):\\$\\([^)]+\\)", flags: "" }, { source: "['\"]?\\$?{{[^}]+}}['\"]?:['\"]?\\$?{{[^}]+}}['\"]?", flags: "" }],
          stopwords: [],
        },
      ],
    },
    {
      id: "databricks-api-token",
      regex: { source: "\\b(dapi[a-f0-9]{32}(?:-\\d)?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["dapi"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "datadog-access-token",
      regex: { source: "(?:datadog)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["datadog"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "defined-networking-api-token",
      regex: { source: "(?:dnkey)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(dnkey-[a-z0-9=_\\-]{26}-[a-z0-9=_\\-]{52})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["dnkey"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "digitalocean-access-token",
      regex: { source: "\\b(doo_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["doo_v1_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "digitalocean-pat",
      regex: { source: "\\b(dop_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["dop_v1_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "digitalocean-refresh-token",
      regex: { source: "\\b(dor_v1_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["dor_v1_"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "discord-api-token",
      regex: { source: "(?:discord)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["discord"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "discord-client-id",
      regex: { source: "(?:discord)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{18})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["discord"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "discord-client-secret",
      regex: { source: "(?:discord)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["discord"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "doppler-api-token",
      regex: { source: "dp\\.pt\\.[a-z0-9A-Z]{43}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["dp.pt."],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "droneci-access-token",
      regex: { source: "(?:droneci)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["droneci"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "dropbox-api-token",
      regex: { source: "(?:dropbox)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{15})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["dropbox"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "dropbox-long-lived-api-token",
      regex: { source: "(?:dropbox)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{11}(AAAAAAAAAA)[a-z0-9\\-_=]{43})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["dropbox"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "dropbox-short-lived-api-token",
      regex: { source: "(?:dropbox)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(sl\\.[a-z0-9\\-=_]{135})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["dropbox"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "duffel-api-token",
      regex: { source: "duffel_(?:test|live)_[a-z0-9_\\-=A-Z]{43}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["duffel_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "dynatrace-api-token",
      regex: { source: "dt0c01\\.[a-z0-9A-Z]{24}\\.[a-z0-9A-Z]{64}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["dt0c01."],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "easypost-api-token",
      regex: { source: "\\bEZAK[a-z0-9A-Z]{54}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ezak"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "easypost-test-api-token",
      regex: { source: "\\bEZTK[a-z0-9A-Z]{54}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["eztk"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "etsy-access-token",
      regex: { source: "(?:(?:ETSY|[Ee]tsy))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9A-Z]{24})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["etsy"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "facebook-access-token",
      regex: { source: "\\b(\\d{15,16}(\\||%)[0-9a-z\\-_]{27,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["facebook"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "facebook-page-access-token",
      regex: { source: "\\b(EAA[MC][a-z0-9A-Z]{100,})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["eaam", "eaac"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "facebook-secret",
      regex: { source: "(?:facebook)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["facebook"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "fastly-api-token",
      regex: { source: "(?:fastly)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["fastly"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "finicity-api-token",
      regex: { source: "(?:finicity)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["finicity"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "finicity-client-secret",
      regex: { source: "(?:finicity)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["finicity"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "finnhub-access-token",
      regex: { source: "(?:finnhub)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["finnhub"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "flickr-access-token",
      regex: { source: "(?:flickr)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["flickr"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "flutterwave-encryption-key",
      regex: { source: "FLWSECK_TEST-[a-h0-9A-H]{12}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["flwseck_test"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "flutterwave-public-key",
      regex: { source: "FLWPUBK_TEST-[a-h0-9A-H]{32}-[Xx]", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["flwpubk_test"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "flutterwave-secret-key",
      regex: { source: "FLWSECK_TEST-[a-h0-9A-H]{32}-[Xx]", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["flwseck_test"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "flyio-access-token",
      regex: { source: "\\b((?:fo1_[\\w\\-]{43}|fm1[ar]_[a-zA-Z0-9+\\/]{100,}={0,3}|fm2_[a-zA-Z0-9+\\/]{100,}={0,3}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["fo1_", "fm1", "fm2_"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "frameio-api-token",
      regex: { source: "fio-u-[a-z0-9\\-_=A-Z]{64}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["fio-u-"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "freshbooks-access-token",
      regex: { source: "(?:freshbooks)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["freshbooks"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "gcp-api-key",
      regex: { source: "\\b(AIza[\\w\\-]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["aiza"],
      entropy: 4,
      allowlists: [
        {
          target: "secret",
          and: false,
          regexes: [{ source: "AIzaSyabcdefghijklmnopqrstuvwxyz1234567", flags: "" }, { source: "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs", flags: "" }, { source: "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM", flags: "" }, { source: "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU", flags: "" }, { source: "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0", flags: "" }, { source: "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A", flags: "" }, { source: "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c", flags: "" }, { source: "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4", flags: "" }, { source: "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY", flags: "" }, { source: "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM", flags: "" }, { source: "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ", flags: "" }, { source: "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g", flags: "" }, { source: "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU", flags: "" }, { source: "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw", flags: "" }, { source: "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE", flags: "" }, { source: "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY", flags: "" }],
          stopwords: [],
        },
      ],
    },
    {
      id: "generic-api-key",
      regex: { source: "(?:[aA][cC][cC][eE][sS][sS]|[aA][uU][tT][hH]|(?:[Aa]pi|API)|[cC][rR][eE][dD][eE][nN][tT][iI][aA][lL]|[cC][rR][eE][dD][sS]|[kK][eE][yY]|[pP][aA][sS][sS][wW](?:[oO][rR])?[dD]|[sS][eE][cC][rR][eE][tT]|[tT][oO][kK][eE][nN])(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([\\w.=\\-]{10,150}|[a-z0-9A-Z][a-z0-9+/A-Z]{11,}={0,3})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["access", "api", "auth", "key", "credential", "creds", "passwd", "password", "secret", "token"],
      entropy: 3.5,
      allowlists: [
        {
          target: "secret",
          and: false,
          regexes: [{ source: "^[a-zA-Z_.\\-]+$", flags: "" }],
          stopwords: [],
        },
        {
          target: "match",
          and: false,
          regexes: [{ source: "(?:[aA][cC][cC][eE][sS][sS](?:[iI][bB][iI][lL][iI][tT][yY]|[oO][rR])|[aA][cC][cC][eE][sS][sS][_.\\-]?[iI][dD]|[rR][aA][nN][dD][oO][mM][_.\\-]?[aA][cC][cC][eE][sS][sS]|[aA][pP][iI][_.\\-]?(?:[iI][dD]|[nN][aA][mM][eE]|[vV][eE][rR][sS][iI][oO][nN])|[rR][aA][pP][iI][dD]|[cC][aA][pP][iI][tT][aA][lL]|[a-z0-9\\-A-Z]*?[aA][pP][iI][a-z0-9\\-A-Z]*?:[jJ][aA][rR]:|[aA][uU][tT][hH][oO][rR]|[Xx]-[Mm][Ss]-[Ee][xX][cC][hH][aA][nN][gG][eE]-[Oo][rR][gG][aA][nN][iI][zZ][aA][tT][iI][oO][nN]-[Aa][uU][tT][hH]|[Aa][uU][tT][hH][eE][nN][tT][iI][cC][aA][tT][iI][oO][nN]-[Rr][eE][sS][uU][lL][tT][sS]|(?:[cC][rR][eE][dD][eE][nN][tT][iI][aA][lL][sS]?[_.\\-]?[iI][dD]|[wW][iI][tT][hH][Cc][rR][eE][dD][eE][nN][tT][iI][aA][lL][sS])|(?:[bB][uU][cC][kK][eE][tT]|[fF][oO][rR][eE][iI][gG][nN]|[hH][oO][tT]|[iI][dD][xX]|[nN][aA][tT][uU][rR][aA][lL]|[pP][rR][iI][mM][aA][rR][yY]|[pP][uU][bB](?:[lL][iI][cC])?|[sS][cC][hH][eE][mM][aA]|[sS][eE][qQ][uU][eE][nN][cC][eE])[_.\\-]?[kK][eE][yY]|(?:[tT][uU][rR][kK][eE][yY])|[kK][eE][yY][_.\\-]?(?:[aA][lL][iI][aA][sS]|[bB][oO][aA][rR][dD]|[cC][oO][dD][eE]|[fF][rR][aA][mM][eE]|[iI][dD]|[lL][eE][nN][gG][tT][hH]|[mM][eE][sS][hH]|[nN][aA][mM][eE]|[pP][aA][iI][rR]|[pP][rR][eE][sS][sS](?:[eE][dD])?|[rR][iI][nN][gG]|[sS][eE][lL][eE][cC][tT][oO][rR]|[sS][iI][gG][nN][aA][tT][uU][rR][eE]|[sS][iI][zZ][eE]|[sS][tT][oO][nN][eE]|[sS][tT][oO][rR][eE][tT][yY][pP][eE]|[wW][oO][rR][dD]|[uU][pP]|[dD][oO][wW][nN]|[lL][eE][fF][tT]|[rR][iI][gG][hH][tT])|[kK][eE][yY][_.\\-]?[vV][aA][uU][lL][tT][_.\\-]?(?:[iI][dD]|[nN][aA][mM][eE])|[kK][eE][yY][Vv][aA][uU][lL][tT][Tt][oO][Ss][tT][oO][rR][eE][Ss][eE][cC][rR][eE][tT][sS]|[kK][eE][yY](?:[sS][tT][oO][rR][eE]|[tT][aA][bB])[_.\\-]?(?:[fF][iI][lL][eE]|[pP][aA][tT][hH])|[iI][sS][sS][uU][eE][rR][kK][eE][yY][hH][aA][sS][hH]|(?:[DdMm]onkey|[DM]ONKEY)|[kK][eE][yY][iI][nN][gG]|(?:[sS][eE][cC][rR][eE][tT])[_.\\-]?(?:[lL][eE][nN][gG][tT][hH]|[nN][aA][mM][eE]|[sS][iI][zZ][eE])|[Uu][sS][eE][rR][Ss][eE][cC][rR][eE][tT][sS][Ii][dD]|(?:[cC][sS][rR][fF])[_.\\-]?[tT][oO][kK][eE][nN]|(?:[iI][oO]\\.[jJ][sS][oO][nN][wW][eE][bB][tT][oO][kK][eE][nN][ \\t]?:[ \\t]?[\\w\\-]+)|(?:[aA][pP][iI]|[cC][rR][eE][dD][eE][nN][tT][iI][aA][lL][sS]|[tT][oO][kK][eE][nN])[_.\\-]?(?:[eE][nN][dD][pP][oO][iI][nN][tT]|[uU][rR][ilIL])|[pP][uU][bB][lL][iI][cC][_.\\-]?[tT][oO][kK][eE][nN]|(?:[kK][eE][yY]|[tT][oO][kK][eE][nN])[_.\\-]?[fF][iI][lL][eE]|(?:(?:[A-Z_]+=\\n[A-Z_]+=|[a-z_]+=\\n[a-z_]+=)(?:\\n|$))|(?:(?:[A-Z.]+=\\n[A-Z.]+=|[a-z.]+=\\n[a-z.]+=)(?:\\n|$)))", flags: "" }],
          stopwords: ["000000", "6fe4476ee5a1832882e326b506d14126", "_ec2_", "aaaaaa", "about", "abstract", "academy", "acces", "account", "act-", "act.", "act_", "action", "active", "actively", "activity", "adapter", "add-", "add-on", "add.", "add_", "addon", "addres", "admin", "adobe", "advanced", "adventure", "agent", "agile", "air-", "air.", "air_", "ajax", "akka", "alert", "alfred", "algorithm", "all-", "all.", "all_", "alloy", "alpha", "amazon", "amqp", "analysi", "analytic", "analyzer", "android", "angular", "angularj", "animate", "animation", "another", "ansible", "answer", "ant-", "ant.", "ant_", "any-", "any.", "any_", "apache", "app-", "app.", "app_", "apple", "arch", "archive", "archived", "arduino", "array", "art-", "art.", "art_", "article", "asp-", "asp.", "asp_", "asset", "async", "atom", "attention", "audio", "audit", "aura", "auth", "author", "authorize", "auto", "automated", "automatic", "awesome", "aws_", "azure", "back", "backbone", "backend", "backup", "bar-", "bar.", "bar_", "base", "based", "bash", "basic", "batch", "been", "beer", "behavior", "being", "benchmark", "best", "beta", "better", "big-", "big.", "big_", "binary", "binding", "bit-", "bit.", "bit_", "bitcoin", "block", "blog", "board", "book", "bookmark", "boost", "boot", "bootstrap", "bosh", "bot-", "bot.", "bot_", "bower", "box-", "box.", "box_", "boxen", "bracket", "branch", "bridge", "browser", "brunch", "buffer", "bug-", "bug.", "bug_", "build", "builder", "building", "buildout", "buildpack", "built", "bundle", "busines", "but-", "but.", "but_", "button", "cache", "caching", "cakephp", "calendar", "call", "camera", "campfire", "can-", "can.", "can_", "canva", "captcha", "capture", "card", "carousel", "case", "cassandra", "cat-", "cat.", "cat_", "category", "center", "cento", "challenge", "change", "changelog", "channel", "chart", "chat", "cheat", "check", "checker", "chef", "ches", "chinese", "chosen", "chrome", "ckeditor", "clas", "classe", "classic", "clean", "cli-", "cli.", "cli_", "client", "clojure", "clone", "closure", "cloud", "club", "cluster", "cms-", "cms_", "coco", "code", "coding", "coffee", "color", "combination", "combo", "command", "commander", "comment", "commit", "common", "community", "compas", "compiler", "complete", "component", "composer", "computer", "computing", "con-", "con.", "con_", "concept", "conf", "config", "connect", "connector", "console", "contact", "container", "contao", "content", "contest", "context", "control", "convert", "converter", "conway'", "cookbook", "cookie", "cool", "copy", "cordova", "core", "couchbase", "couchdb", "countdown", "counter", "course", "craft", "crawler", "create", "creating", "creator", "credential", "crm-", "crm.", "crm_", "cros", "crud", "csv-", "csv.", "csv_", "cube", "cucumber", "cuda", "current", "currently", "custom", "daemon", "dark", "dart", "dash", "dashboard", "data", "database", "date", "day-", "day.", "day_", "dead", "debian", "debug", "debugger", "deck", "define", "del-", "del.", "del_", "delete", "demo", "deploy", "design", "designer", "desktop", "detection", "detector", "dev-", "dev.", "dev_", "develop", "developer", "device", "devise", "diff", "digital", "directive", "directory", "discovery", "display", "django", "dns-", "dns_", "doc-", "doc.", "doc_", "docker", "docpad", "doctrine", "document", "doe-", "doe.", "doe_", "dojo", "dom-", "dom.", "dom_", "domain", "don't", "done", "dot-", "dot.", "dot_", "dotfile", "download", "draft", "drag", "drill", "drive", "driven", "driver", "drop", "dropbox", "drupal", "dsl-", "dsl.", "dsl_", "dynamic", "easy", "ecdsa", "eclipse", "edit", "editing", "edition", "editor", "element", "emac", "email", "embed", "embedded", "ember", "emitter", "emulator", "encoding", "endpoint", "engine", "english", "enhanced", "entity", "entry", "env_", "episode", "erlang", "error", "espresso", "event", "evented", "example", "exchange", "exercise", "experiment", "expire", "exploit", "explorer", "export", "exporter", "expres", "ext-", "ext.", "ext_", "extended", "extension", "external", "extra", "extractor", "fabric", "facebook", "factory", "fake", "fast", "feature", "feed", "fewfwef", "ffmpeg", "field", "file", "filter", "find", "finder", "firefox", "firmware", "first", "fish", "fix-", "fix_", "flash", "flask", "flat", "flex", "flexible", "flickr", "flow", "fluent", "fluentd", "fluid", "folder", "font", "force", "foreman", "fork", "form", "format", "formatter", "forum", "foundry", "framework", "free", "friend", "friendly", "front-end", "frontend", "ftp-", "ftp.", "ftp_", "fuel", "full", "fun-", "fun.", "fun_", "func", "future", "gaia", "gallery", "game", "gateway", "gem-", "gem.", "gem_", "gen-", "gen.", "gen_", "general", "generator", "generic", "genetic", "get-", "get.", "get_", "getenv", "getting", "ghost", "gist", "git-", "git.", "git_", "github", "gitignore", "gitlab", "glas", "gmail", "gnome", "gnu-", "gnu.", "gnu_", "goal", "golang", "gollum", "good", "google", "gpu-", "gpu.", "gpu_", "gradle", "grail", "graph", "graphic", "great", "grid", "groovy", "group", "grunt", "guard", "gui-", "gui.", "gui_", "guide", "guideline", "gulp", "gwt-", "gwt.", "gwt_", "hack", "hackathon", "hacker", "hacking", "hadoop", "haml", "handler", "hardware", "has-", "has_", "hash", "haskell", "have", "haxe", "hello", "help", "helper", "here", "hero", "heroku", "high", "hipchat", "history", "home", "homebrew", "homepage", "hook", "host", "hosting", "hot-", "hot.", "hot_", "house", "how-", "how.", "how_", "html", "http", "hub-", "hub.", "hub_", "hubot", "human", "icon", "ide-", "ide.", "ide_", "idea", "identity", "idiomatic", "image", "impact", "import", "important", "importer", "impres", "index", "infinite", "info", "injection", "inline", "input", "inside", "inspector", "instagram", "install", "installer", "instant", "intellij", "interface", "internet", "interview", "into", "intro", "ionic", "iphone", "ipython", "irc-", "irc_", "iso-", "iso.", "iso_", "issue", "jade", "jasmine", "java", "jbos", "jekyll", "jenkin", "jetbrains", "job-", "job.", "job_", "joomla", "jpa-", "jpa.", "jpa_", "jquery", "json", "just", "kafka", "karma", "kata", "kernel", "keyboard", "kindle", "kit-", "kit.", "kit_", "kitchen", "knife", "koan", "kohana", "lab-", "lab.", "lab_", "lambda", "lamp", "language", "laravel", "last", "latest", "latex", "launcher", "layer", "layout", "lazy", "ldap", "leaflet", "league", "learn", "learning", "led-", "led.", "led_", "leetcode", "les-", "les.", "les_", "level", "leveldb", "lib-", "lib.", "lib_", "librarie", "library", "license", "life", "liferay", "light", "lightbox", "like", "line", "link", "linked", "linkedin", "linux", "lisp", "list", "lite", "little", "load", "loader", "local", "location", "lock", "log-", "log.", "log_", "logger", "logging", "logic", "login", "logstash", "longer", "look", "love", "lua-", "lua.", "lua_", "mac-", "mac.", "mac_", "machine", "made", "magento", "magic", "mail", "make", "maker", "making", "man-", "man.", "man_", "manage", "manager", "manifest", "manual", "map-", "map.", "map_", "mapper", "mapping", "markdown", "markup", "master", "math", "matrix", "maven", "md5", "mean", "media", "mediawiki", "meetup", "memcached", "memory", "menu", "merchant", "message", "messaging", "meta", "metadata", "meteor", "method", "metric", "micro", "middleman", "migration", "minecraft", "miner", "mini", "minimal", "mirror", "mit-", "mit.", "mit_", "mobile", "mocha", "mock", "mod-", "mod.", "mod_", "mode", "model", "modern", "modular", "module", "modx", "money", "mongo", "mongodb", "mongoid", "mongoose", "monitor", "monkey", "more", "motion", "moved", "movie", "mozilla", "mqtt", "mule", "multi", "multiple", "music", "mustache", "mvc-", "mvc.", "mvc_", "mysql", "nagio", "name", "native", "need", "neo-", "neo.", "neo_", "nest", "nested", "net-", "net.", "net_", "nette", "network", "new-", "new.", "new_", "next", "nginx", "ninja", "nlp-", "nlp.", "nlp_", "node", "nodej", "nosql", "not-", "not.", "not_", "note", "notebook", "notepad", "notice", "notifier", "now-", "now.", "now_", "number", "oauth", "object", "objective", "obsolete", "ocaml", "octopres", "official", "old-", "old.", "old_", "onboard", "online", "only", "open", "opencv", "opengl", "openshift", "openwrt", "option", "oracle", "org-", "org.", "org_", "origin", "original", "orm-", "orm.", "orm_", "osx-", "osx_", "our-", "our.", "our_", "out-", "out.", "out_", "output", "over", "overview", "own-", "own.", "own_", "pack", "package", "packet", "page", "panel", "paper", "paperclip", "para", "parallax", "parallel", "parse", "parser", "parsing", "particle", "party", "password", "patch", "path", "pattern", "payment", "paypal", "pdf-", "pdf.", "pdf_", "pebble", "people", "perl", "personal", "phalcon", "phoenix", "phone", "phonegap", "photo", "php-", "php.", "php_", "physic", "picker", "pipeline", "platform", "play", "player", "please", "plu-", "plu.", "plu_", "plug-in", "plugin", "plupload", "png-", "png.", "png_", "poker", "polyfill", "polymer", "pool", "pop-", "pop.", "pop_", "popcorn", "popup", "port", "portable", "portal", "portfolio", "post", "power", "powered", "powerful", "prelude", "pretty", "preview", "principle", "print", "pro-", "pro.", "pro_", "problem", "proc", "product", "profile", "profiler", "program", "progres", "project", "protocol", "prototype", "provider", "proxy", "public", "pull", "puppet", "pure", "purpose", "push", "pusher", "pyramid", "python", "quality", "query", "queue", "quick", "rabbitmq", "rack", "radio", "rail", "railscast", "random", "range", "raspberry", "rdf-", "rdf.", "rdf_", "react", "reactive", "read", "reader", "readme", "ready", "real", "real-time", "reality", "realtime", "recipe", "recorder", "red-", "red.", "red_", "reddit", "redi", "redmine", "reference", "refinery", "refresh", "registry", "related", "release", "remote", "rendering", "repo", "report", "request", "require", "required", "requirej", "research", "resource", "response", "resque", "rest", "restful", "resume", "reveal", "reverse", "review", "riak", "rich", "right", "ring", "robot", "role", "room", "router", "routing", "rpc-", "rpc.", "rpc_", "rpg-", "rpg.", "rpg_", "rspec", "ruby-", "ruby.", "ruby_", "rule", "run-", "run.", "run_", "runner", "running", "runtime", "rust", "rvm-", "rvm.", "rvm_", "salt", "sample", "sandbox", "sas-", "sas.", "sas_", "sbt-", "sbt.", "sbt_", "scala", "scalable", "scanner", "schema", "scheme", "school", "science", "scraper", "scratch", "screen", "script", "scroll", "scs-", "scs.", "scs_", "sdk-", "sdk.", "sdk_", "sdl-", "sdl.", "sdl_", "search", "secure", "security", "see-", "see.", "see_", "seed", "select", "selector", "selenium", "semantic", "sencha", "send", "sentiment", "serie", "server", "service", "session", "set-", "set.", "set_", "setting", "setup", "sha1", "sha2", "sha256", "share", "shared", "sharing", "sheet", "shell", "shield", "shipping", "shop", "shopify", "shortener", "should", "show", "showcase", "side", "silex", "simple", "simulator", "single", "site", "skeleton", "sketch", "skin", "slack", "slide", "slider", "slim", "small", "smart", "smtp", "snake", "snapshot", "snippet", "soap", "social", "socket", "software", "solarized", "solr", "solution", "solver", "some", "soon", "source", "space", "spark", "spatial", "spec", "sphinx", "spine", "spotify", "spree", "spring", "sprite", "sql-", "sql.", "sql_", "sqlite", "ssh-", "ssh.", "ssh_", "stack", "staging", "standard", "stanford", "start", "started", "starter", "startup", "stat", "statamic", "state", "static", "statistic", "statsd", "statu", "steam", "step", "still", "stm-", "stm.", "stm_", "storage", "store", "storm", "story", "strategy", "stream", "streaming", "string", "stripe", "structure", "studio", "study", "stuff", "style", "sublime", "sugar", "suite", "summary", "super", "support", "supported", "svg-", "svg.", "svg_", "svn-", "svn.", "svn_", "swagger", "swift", "switch", "switcher", "symfony", "symphony", "sync", "synopsi", "syntax", "system", "tab-", "tab.", "tab_", "table", "tag-", "tag.", "tag_", "talk", "target", "task", "tcp-", "tcp.", "tcp_", "tdd-", "tdd.", "tdd_", "team", "tech", "template", "term", "terminal", "testing", "tetri", "text", "textmate", "theme", "theory", "three", "thrift", "time", "timeline", "timer", "tiny", "tinymce", "tip-", "tip.", "tip_", "title", "todo", "todomvc", "token", "tool", "toolbox", "toolkit", "top-", "top.", "top_", "tornado", "touch", "tower", "tracker", "tracking", "traffic", "training", "transfer", "translate", "transport", "tree", "trello", "try-", "try.", "try_", "tumblr", "tut-", "tut.", "tut_", "tutorial", "tweet", "twig", "twitter", "type", "typo", "ubuntu", "uiview", "ultimate", "under", "unit", "unity", "universal", "unix", "update", "updated", "upgrade", "upload", "uploader", "uri-", "uri.", "uri_", "url-", "url.", "url_", "usage", "usb-", "usb.", "usb_", "use-", "use.", "use_", "used", "useful", "user", "using", "util", "utilitie", "utility", "vagrant", "validator", "value", "variou", "varnish", "version", "via-", "via.", "via_", "video", "view", "viewer", "vim-", "vim.", "vim_", "vimrc", "virtual", "vision", "visual", "vpn", "want", "warning", "watch", "watcher", "wave", "way-", "way.", "way_", "weather", "web-", "web_", "webapp", "webgl", "webhook", "webkit", "webrtc", "website", "websocket", "welcome", "what", "what'", "when", "where", "which", "why-", "why.", "why_", "widget", "wifi", "wiki", "win-", "win.", "win_", "window", "wip-", "wip.", "wip_", "within", "without", "wizard", "word", "wordpres", "work", "worker", "workflow", "working", "workshop", "world", "wrapper", "write", "writer", "writing", "written", "www-", "www.", "www_", "xamarin", "xcode", "xml-", "xml.", "xml_", "xmpp", "xxxxxx", "yahoo", "yaml", "yandex", "yeoman", "yet-", "yet.", "yet_", "yii-", "yii.", "yii_", "youtube", "yui-", "yui.", "yui_", "zend", "zero", "zip-", "zip.", "zip_", "zsh-", "zsh.", "zsh_"],
        },
        {
          target: "line",
          and: false,
          regexes: [{ source: "--mount=type=secret,", flags: "" }, { source: "import[ \\t]+{[ \\t\\w,]+}[ \\t]+from[ \\t]+['\"][^'\"]+['\"]", flags: "" }],
          stopwords: [],
        },
      ],
    },
    {
      id: "github-app-token",
      regex: { source: "(?:ghu|ghs)_[0-9a-zA-Z]{36}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ghu_", "ghs_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "github-fine-grained-pat",
      regex: { source: "github_pat_\\w{82}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["github_pat_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "github-oauth",
      regex: { source: "gho_[0-9a-zA-Z]{36}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["gho_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "github-pat",
      regex: { source: "ghp_[0-9a-zA-Z]{36}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ghp_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "github-refresh-token",
      regex: { source: "ghr_[0-9a-zA-Z]{36}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ghr_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-cicd-job-token",
      regex: { source: "glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glcbt-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-deploy-token",
      regex: { source: "gldt-[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["gldt-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-feature-flag-client-token",
      regex: { source: "glffct-[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glffct-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-feed-token",
      regex: { source: "glft-[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glft-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-incoming-mail-token",
      regex: { source: "glimt-[0-9a-zA-Z_\\-]{25}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glimt-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-kubernetes-agent-token",
      regex: { source: "glagent-[0-9a-zA-Z_\\-]{50}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glagent-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-oauth-app-secret",
      regex: { source: "gloas-[0-9a-zA-Z_\\-]{64}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["gloas-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-pat",
      regex: { source: "glpat-[\\w\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glpat-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-pat-routable",
      regex: { source: "\\bglpat-[0-9a-zA-Z_\\-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glpat-"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "gitlab-ptt",
      regex: { source: "glptt-[0-9a-f]{40}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glptt-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-rrt",
      regex: { source: "GR1348941[\\w\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["gr1348941"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-runner-authentication-token",
      regex: { source: "glrt-[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glrt-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-runner-authentication-token-routable",
      regex: { source: "\\bglrt-t\\d_[0-9a-zA-Z_\\-]{27,300}\\.[0-9a-z]{2}[0-9a-z]{7}\\b", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glrt-"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "gitlab-scim-token",
      regex: { source: "glsoat-[0-9a-zA-Z_\\-]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glsoat-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitlab-session-cookie",
      regex: { source: "_gitlab_session=[0-9a-z]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["_gitlab_session="],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "gitter-access-token",
      regex: { source: "(?:gitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["gitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "gocardless-api-token",
      regex: { source: "(?:gocardless)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(live_[a-z0-9\\-_=]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["live_", "gocardless"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "grafana-api-key",
      regex: { source: "\\b(eyJrIjoi[A-Za-z0-9]{70,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["eyjrijoi"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "grafana-cloud-api-token",
      regex: { source: "\\b(glc_[A-Za-z0-9+/]{32,400}={0,3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glc_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "grafana-service-account-token",
      regex: { source: "\\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["glsa_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "harness-api-key",
      regex: { source: "(?:pat|sat)\\.[a-zA-Z0-9_\\-]{22}\\.[a-zA-Z0-9]{24}\\.[a-zA-Z0-9]{20}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pat.", "sat."],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "hashicorp-tf-api-token",
      regex: { source: "[a-z0-9A-Z]{14}\\.(?:atlasv1)\\.[a-z0-9\\-_=A-Z]{60,70}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["atlasv1"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "heroku-api-key",
      regex: { source: "(?:heroku)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["heroku"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "heroku-api-key-v2",
      regex: { source: "\\b((HRKU-AA[0-9a-zA-Z_\\-]{58}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["hrku-aa"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "hubspot-api-key",
      regex: { source: "(?:hubspot)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["hubspot"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "huggingface-access-token",
      regex: { source: "\\b(hf_(?:[a-zA-Z]{34}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["hf_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "huggingface-organization-api-token",
      regex: { source: "\\b(api_org_(?:[a-zA-Z]{34}))(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["api_org_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "infracost-api-token",
      regex: { source: "\\b(ico-[a-zA-Z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ico-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "intercom-api-key",
      regex: { source: "(?:intercom)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["intercom"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "intra42-client-secret",
      regex: { source: "\\b(s-s4t2(?:ud|af)-[abcdef0123456789A-F]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["intra", "s-s4t2ud-", "s-s4t2af-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "jfrog-api-key",
      regex: { source: "(?:jfrog|artifactory|bintray|xray)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{73})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["jfrog", "artifactory", "bintray", "xray"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "jfrog-identity-token",
      regex: { source: "(?:jfrog|artifactory|bintray|xray)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["jfrog", "artifactory", "bintray", "xray"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "jwt",
      regex: { source: "\\b(ey[a-zA-Z0-9]{17,}\\.ey[a-zA-Z0-9\\/\\\\_\\-]{17,}\\.(?:[a-zA-Z0-9\\/\\\\_\\-]{10,}={0,2})?)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ey"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "jwt-base64",
      regex: { source: "\\bZXlK(?:(aGJHY2lPaU)|(aGNIVWlPaU)|(aGNIWWlPaU)|(aGRXUWlPaU)|(aU5qUWlP)|(amNtbDBJanBi)|(amRIa2lPaU)|(bGNHc2lPbn)|(bGJtTWlPaU)|(cWEzVWlPaU)|(cWQyc2lPb)|(cGMzTWlPaU)|(cGRpSTZJ)|(cmFXUWlP)|(clpYbGZiM0J6SWpwY)|(cmRIa2lPaUp)|(dWIyNWpaU0k2)|(d01tTWlP)|(d01uTWlPaU)|(d2NIUWlPaU)|(emRXSWlPaU)|(emRuUWlP)|(MFlXY2lPaU)|(MGVYQWlPaUp)|(MWNtd2l)|(MWMyVWlPaUp)|(MlpYSWlPaU)|(MlpYSnphVzl1SWpv)|(NElqb2)|(NE5XTWlP)|(NE5YUWlPaU)|(NE5YUWpVekkxTmlJNkl)|(NE5YVWlPaU)|(NmFYQWlPaU))[a-zA-Z0-9\\/\\\\_+\\-\\r\\n]{40,}={0,2}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["zxlk"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "kraken-access-token",
      regex: { source: "(?:kraken)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9\\/=_\\+\\-]{80,90})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["kraken"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "kucoin-access-token",
      regex: { source: "(?:kucoin)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["kucoin"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "kucoin-secret-key",
      regex: { source: "(?:kucoin)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["kucoin"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "launchdarkly-access-token",
      regex: { source: "(?:launchdarkly)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["launchdarkly"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "linear-api-key",
      regex: { source: "lin_api_[a-z0-9A-Z]{40}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["lin_api_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "linear-client-secret",
      regex: { source: "(?:linear)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["linear"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "linkedin-client-id",
      regex: { source: "(?:linked[_\\-]?in)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{14})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["linkedin", "linked_in", "linked-in"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "linkedin-client-secret",
      regex: { source: "(?:linked[_\\-]?in)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["linkedin", "linked_in", "linked-in"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "lob-api-key",
      regex: { source: "(?:lob)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((live|test)_[a-f0-9]{35})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["test_", "live_"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "lob-pub-api-key",
      regex: { source: "(?:lob)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((test|live)_pub_[a-f0-9]{31})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["test_pub", "live_pub", "_pub"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "looker-client-id",
      regex: { source: "(?:looker)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["looker"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "looker-client-secret",
      regex: { source: "(?:looker)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["looker"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mailchimp-api-key",
      regex: { source: "(?:MailchimpSDK[^\\n]initialize|mailchimp)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{32}-us\\d\\d)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mailchimp"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mailgun-private-api-token",
      regex: { source: "(?:mailgun)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(key-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mailgun"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mailgun-pub-key",
      regex: { source: "(?:mailgun)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pubkey-[a-f0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mailgun"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mailgun-signing-key",
      regex: { source: "(?:mailgun)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mailgun"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mapbox-api-token",
      regex: { source: "(?:mapbox)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(pk\\.[a-z0-9]{60}\\.[a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mapbox"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "mattermost-access-token",
      regex: { source: "(?:mattermost)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["mattermost"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "maxmind-license-key",
      regex: { source: "\\b([A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["_mmk"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "messagebird-api-token",
      regex: { source: "(?:message[_\\-]?bird)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["messagebird", "message-bird", "message_bird"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "messagebird-client-id",
      regex: { source: "(?:message[_\\-]?bird)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["messagebird", "message-bird", "message_bird"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "microsoft-teams-webhook",
      regex: { source: "https://[a-z0-9]+\\.webhook\\.office\\.com/webhookb2/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}@[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}/IncomingWebhook/[a-z0-9]{32}/[a-z0-9]{8}-([a-z0-9]{4}-){3}[a-z0-9]{12}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["webhook.office.com", "webhookb2", "incomingwebhook"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "netlify-access-token",
      regex: { source: "(?:netlify)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{40,46})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["netlify"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "new-relic-browser-api-token",
      regex: { source: "(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRJS-[a-f0-9]{19})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["nrjs-"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "new-relic-insert-key",
      regex: { source: "(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRII-[a-z0-9\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["nrii-"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "new-relic-user-api-id",
      regex: { source: "(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["new-relic", "newrelic", "new_relic"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "new-relic-user-api-key",
      regex: { source: "(?:new-relic|newrelic|new_relic)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(NRAK-[a-z0-9]{27})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["nrak"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "notion-api-token",
      regex: { source: "\\b(ntn_[0-9]{11}[A-Za-z0-9]{32}[A-Za-z0-9]{3})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["ntn_"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "npm-access-token",
      regex: { source: "\\b(npm_[a-z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["npm_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "nytimes-access-token",
      regex: { source: "(?:nytimes|new-york-times,|newyorktimes)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9=_\\-]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["nytimes", "new-york-times", "newyorktimes"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "octopus-deploy-api-key",
      regex: { source: "\\b(API-[A-Z0-9]{26})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["api-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "okta-access-token",
      regex: { source: "(?:[\\w.\\-]{0,50}?(?:(?:[Oo]kta|OKTA))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(00[\\w=\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["okta"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "openai-api-key",
      regex: { source: "\\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_\\-]{74}|[A-Za-z0-9_\\-]{58})T3BlbkFJ(?:[A-Za-z0-9_\\-]{74}|[A-Za-z0-9_\\-]{58})\\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["t3blbkfj"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "openshift-user-token",
      regex: { source: "\\b(sha256~[\\w\\-]{43})(?:[^\\w\\-]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sha256~"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "perplexity-api-key",
      regex: { source: "\\b(pplx-[a-zA-Z0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$|\\b)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pplx-"],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "plaid-api-token",
      regex: { source: "(?:plaid)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["plaid"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "plaid-client-id",
      regex: { source: "(?:plaid)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{24})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["plaid"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "plaid-secret-key",
      regex: { source: "(?:plaid)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["plaid"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "planetscale-api-token",
      regex: { source: "\\b(pscale_tkn_[\\w=\\.\\-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pscale_tkn_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "planetscale-oauth-token",
      regex: { source: "\\b(pscale_oauth_[\\w=\\.\\-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pscale_oauth_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "planetscale-password",
      regex: { source: "\\b(pscale_pw_[\\w=\\.\\-]{32,64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pscale_pw_"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "postman-api-token",
      regex: { source: "\\b(PMAK-[a-f0-9A-F]{24}\\-[a-f0-9A-F]{34})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pmak-"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "prefect-api-token",
      regex: { source: "\\b(pnu_[a-zA-Z0-9]{36})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pnu_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "private-key",
      regex: { source: "-----BEGIN[ A-Z0-9_\\-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\\s\\S\\-]{64,}?KEY(?: BLOCK)?-----", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["-----begin"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "privateai-api-token",
      regex: { source: "(?:[\\w.\\-]{0,50}?(?:[pP][rR][iI][vV][aA][tT][eE][_\\-]?[aA][iI])(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{32})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["privateai", "private_ai", "private-ai"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "pulumi-api-token",
      regex: { source: "\\b(pul-[a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pul-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "pypi-upload-token",
      regex: { source: "pypi-AgEIcHlwaS5vcmc[\\w\\-]{50,1000}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["pypi-ageichlwas5vcmc"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "rapidapi-access-token",
      regex: { source: "(?:rapidapi)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9_\\-]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["rapidapi"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "readme-api-token",
      regex: { source: "\\b(rdme_[a-z0-9]{70})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["rdme_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "rubygems-api-token",
      regex: { source: "\\b(rubygems_[a-f0-9]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["rubygems_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "scalingo-api-token",
      regex: { source: "\\b(tk-us-[\\w\\-]{48})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["tk-us-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "sendbird-access-id",
      regex: { source: "(?:sendbird)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["sendbird"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "sendbird-access-token",
      regex: { source: "(?:sendbird)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["sendbird"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "sendgrid-api-token",
      regex: { source: "\\b(SG\\.[a-z0-9=_\\-\\.A-Z]{66})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sg."],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "sendinblue-api-token",
      regex: { source: "\\b(xkeysib-[a-f0-9]{64}\\-[a-z0-9A-Z]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xkeysib-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "sentry-access-token",
      regex: { source: "(?:sentry)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["sentry"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "sentry-org-token",
      regex: { source: "\\bsntrys_eyJpYXQiO[a-zA-Z0-9+/]{10,200}(?:LCJyZWdpb25fdXJs|InJlZ2lvbl91cmwi|cmVnaW9uX3VybCI6)[a-zA-Z0-9+/]{10,200}={0,2}_[a-zA-Z0-9+/]{43}(?:[^a-zA-Z0-9+/]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sntrys_eyjpyxqio"],
      entropy: 4.5,
      allowlists: [],
    },
    {
      id: "sentry-user-token",
      regex: { source: "\\b(sntryu_[a-f0-9]{64})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sntryu_"],
      entropy: 3.5,
      allowlists: [],
    },
    {
      id: "settlemint-application-access-token",
      regex: { source: "\\b(sm_aat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sm_aat"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "settlemint-personal-access-token",
      regex: { source: "\\b(sm_pat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sm_pat"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "settlemint-service-access-token",
      regex: { source: "\\b(sm_sat_[a-zA-Z0-9]{16})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sm_sat"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "shippo-api-token",
      regex: { source: "\\b(shippo_(?:live|test)_[a-fA-F0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["shippo_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "shopify-access-token",
      regex: { source: "shpat_[a-fA-F0-9]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["shpat_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "shopify-custom-access-token",
      regex: { source: "shpca_[a-fA-F0-9]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["shpca_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "shopify-private-app-access-token",
      regex: { source: "shppa_[a-fA-F0-9]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["shppa_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "shopify-shared-secret",
      regex: { source: "shpss_[a-fA-F0-9]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["shpss_"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "sidekiq-secret",
      regex: { source: "(?:BUNDLE_ENTERPRISE__CONTRIBSYS__COM|BUNDLE_GEMS__CONTRIBSYS__COM)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-f0-9]{8}:[a-f0-9]{8})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "sidekiq-sensitive-url",
      regex: { source: "\\bhttps?://([a-f0-9]{8}:[a-f0-9]{8})@(?:gems[^\\n]contribsys[^\\n]com|enterprise[^\\n]contribsys[^\\n]com)(?:[\\/|\\#|\\?|:]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["gems.contribsys.com", "enterprise.contribsys.com"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "slack-app-token",
      regex: { source: "xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xapp"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-bot-token",
      regex: { source: "xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9\\-]*", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxb"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "slack-config-access-token",
      regex: { source: "xoxe[^\\n]xox[bp]-\\d-[A-Z0-9]{163,166}", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxe.xoxb-", "xoxe.xoxp-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-config-refresh-token",
      regex: { source: "xoxe-\\d-[A-Z0-9]{146}", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxe-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-legacy-bot-token",
      regex: { source: "xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxb"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-legacy-token",
      regex: { source: "xox[os]-\\d+-\\d+-\\d+-[a-fA-F\\d]+", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxo", "xoxs"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-legacy-workspace-token",
      regex: { source: "xox[ar]-(?:\\d-)?[0-9a-zA-Z]{8,48}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxa", "xoxr"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-user-token",
      regex: { source: "xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9\\-]{28,34}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["xoxp-", "xoxe-"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "slack-webhook-url",
      regex: { source: "(?:https?://)?hooks[^\\n]slack[^\\n]com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["hooks.slack.com"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "snyk-api-token",
      regex: { source: "(?:snyk[_.\\-]?(?:(?:api|oauth)[_.\\-]?)?(?:key|token))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["snyk"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "sonar-api-token",
      regex: { source: "(?:sonar[_.\\-]?(login|token))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}((?:squ_|sqp_|sqa_)?[a-z0-9=_\\-]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 2,
      keywords: ["sonar"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "sourcegraph-access-token",
      regex: { source: "\\b(\\b(sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}|[a-fA-F0-9]{40})\\b)(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sgp_", "sourcegraph"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "square-access-token",
      regex: { source: "\\b((?:EAAA|sq0atp-)[\\w\\-]{22,60})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sq0atp-", "eaaa"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "squarespace-access-token",
      regex: { source: "(?:squarespace)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["squarespace"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "stripe-access-token",
      regex: { source: "\\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"],
      entropy: 2,
      allowlists: [],
    },
    {
      id: "sumologic-access-id",
      regex: { source: "(?:[\\w.\\-]{0,50}?(?:(?:[Ss]umo|SUMO))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3})(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(su[a-zA-Z0-9]{12})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["sumo"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "sumologic-access-token",
      regex: { source: "(?:(?:[Ss]umo|SUMO))(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9A-Z]{64})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["sumo"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "telegram-bot-api-token",
      regex: { source: "(?:[tT][eE][lL][eE][gG][rR])(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{5,16}:(?:A)[a-z0-9_\\-A-Z]{34})(?:[\\x60'\"\\s;]|\\\\[nrNR]|$)", flags: "" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["telegr"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "travisci-access-token",
      regex: { source: "(?:travis)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{22})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["travis"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twilio-api-key",
      regex: { source: "SK[0-9a-fA-F]{32}", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["sk"],
      entropy: 3,
      allowlists: [],
    },
    {
      id: "twitch-api-token",
      regex: { source: "(?:twitch)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{30})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitch"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twitter-access-secret",
      regex: { source: "(?:twitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{45})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twitter-access-token",
      regex: { source: "(?:twitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([0-9]{15,25}-[a-zA-Z0-9]{20,40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twitter-api-key",
      regex: { source: "(?:twitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{25})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twitter-api-secret",
      regex: { source: "(?:twitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{50})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "twitter-bearer-token",
      regex: { source: "(?:twitter)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(A{22}[a-zA-Z0-9%]{80,100})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["twitter"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "typeform-api-token",
      regex: { source: "(?:typeform)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(tfp_[a-z0-9\\-_\\.=]{59})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["tfp_"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "vault-batch-token",
      regex: { source: "\\b(hvb\\.[\\w\\-]{138,300})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["hvb."],
      entropy: 4,
      allowlists: [],
    },
    {
      id: "vault-service-token",
      regex: { source: "\\b((?:hvs\\.[\\w\\-]{90,120}|s\\.(?:[a-z0-9A-Z]{24})))(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "" },
      prefix: 0,
      secretGroup: 0,
      keywords: ["hvs.", "s."],
      entropy: 3.5,
      allowlists: [
        {
          target: "secret",
          and: false,
          regexes: [{ source: "s\\.[A-Za-z]{24}", flags: "" }],
          stopwords: [],
        },
      ],
    },
    {
      id: "yandex-access-token",
      regex: { source: "(?:yandex)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(t1\\.[A-Z0-9a-z_\\-]+[=]{0,2}\\.[A-Z0-9a-z_\\-]{86}[=]{0,2})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["yandex"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "yandex-api-key",
      regex: { source: "(?:yandex)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(AQVN[A-Za-z0-9_\\-]{35,38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["yandex"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "yandex-aws-access-token",
      regex: { source: "(?:yandex)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}(YC[a-zA-Z0-9_\\-]{38})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["yandex"],
      entropy: 0,
      allowlists: [],
    },
    {
      id: "zendesk-secret-key",
      regex: { source: "(?:zendesk)(?:[ \\t\\w.\\-]{0,20})[\\s'\"]{0,3}(?:=|>|:{1,3}=|\\|\\||:|=>|\\?=|,)[\\x60'\"\\s=]{0,5}([a-z0-9]{40})(?:[\\x60'\"\\s;]|\\\\[nr]|$)", flags: "i" },
      prefix: 50,
      secretGroup: 0,
      keywords: ["zendesk"],
      entropy: 0,
      allowlists: [],
    },
  ];
  return rules;
}
