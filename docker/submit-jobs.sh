#!/usr/bin/env bash
# Submits the streamledger jobs to the compose session cluster with `flink run` (job jar built with
# Flink provided). Stream ARNs come from the provision container (/shared/streams.env).
set -euo pipefail
. /shared/streams.env
JAR=/opt/flink/usrlib/streamledger-jobs.jar
MASTER=jobmanager:8081
AWS=(--streamledger.aws.dynamodb.endpoint http://dynamodb-local:8000
     --streamledger.aws.region us-east-1
     --streamledger.aws.credentials.provider BASIC
     --streamledger.aws.credentials.access-key-id local
     --streamledger.aws.credentials.secret-access-key local)
until flink list -m "$MASTER" >/dev/null 2>&1; do sleep 2; done
flink run -d -m "$MASTER" -c io.streamledger.jobs.posting.PostingJob "$JAR" "${AWS[@]}" \
  --streamledger.source.transport DYNAMODB_STREAMS \
  --streamledger.source.stream-arn "$CONTEXT_STREAM_ARN" \
  --streamledger.source.table Context
flink run -d -m "$MASTER" -c io.streamledger.jobs.projection.ProjectionJob "$JAR" "${AWS[@]}" \
  --streamledger.source.transport DYNAMODB_STREAMS \
  --streamledger.source.stream-arn "$LEDGER_STREAM_ARN" \
  --streamledger.source.table Ledger
