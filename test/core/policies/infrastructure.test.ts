import { policyTable } from './table';

policyTable('kubectl-mutation', [
  {
    note: 'a port-forward open to the network',
    spec: 'kubectl port-forward --address 0.0.0.0 svc/postgres 5432:5432',
    expect: 'ask',
  },
  {
    note: 'near miss: a port-forward on loopback',
    spec: 'kubectl port-forward --address 127.0.0.1 svc/postgres 15432:5432',
    expect: null,
  },
  { spec: 'kubectl delete pod web-1', expect: 'ask' },
  {
    note: 'near miss: pods deleted on a local kind cluster',
    spec: 'kubectl --context kind-dev -n dev delete pod -l app=api',
    expect: null,
  },
  { note: 'near miss: minikube', spec: 'kubectl apply --context=minikube -f k8s/dev.yaml', expect: null },
  {
    note: 'a context that only mentions kind is not one kind made',
    spec: 'kubectl --context prod-kind-mirror delete ns payments',
    expect: 'ask',
  },
  { note: 'context first', spec: 'kubectl --context prod -n api apply -f deploy.yaml', expect: 'ask' },
  { note: 'scale', spec: 'kubectl scale deploy/web --replicas=0', expect: 'ask' },
  { note: 'rollout restart', spec: 'kubectl rollout restart deployment/web', expect: 'ask' },
  { note: 'exec', spec: 'kubectl exec -it web-1 -- sh', expect: 'ask' },
  { note: 'oc', spec: 'oc delete project staging', expect: 'ask' },
  { note: 'absolute path', spec: '/usr/local/bin/kubectl drain node-3', expect: 'ask' },
  { note: 'in bash -c', spec: 'bash -c "kubectl delete ns prod"', expect: 'ask' },
  {
    note: 'allow pattern (glob)',
    spec: 'kubectl apply -f k8s/dev/app.yaml',
    params: { allowPatterns: ['kubectl apply -f k8s/dev/*'] },
    expect: null,
  },
  {
    note: 'allow pattern does not cover prod',
    spec: 'kubectl apply -f k8s/prod/app.yaml',
    params: { allowPatterns: ['kubectl apply -f k8s/dev/*'] },
    expect: 'ask',
  },
  { note: 'near miss: get', spec: 'kubectl get pods -n api', expect: null },
  { note: 'near miss: describe', spec: 'kubectl --context prod describe deploy web', expect: null },
  { note: 'near miss: logs', spec: 'kubectl logs -f web-1', expect: null },
  { note: 'near miss: rollout status', spec: 'kubectl rollout status deploy/web', expect: null },
  { note: 'near miss: client dry run', spec: 'kubectl apply --dry-run=client -f k8s/', expect: null },
  { note: 'dry run none is real', spec: 'kubectl apply --dry-run=none -f k8s/', expect: 'ask' },
]);

policyTable('terraform-apply-destroy', [
  { spec: 'terraform apply -auto-approve', expect: 'ask' },
  { note: 'destroy', spec: 'terraform destroy', expect: 'ask' },
  { note: 'chdir', spec: 'terraform -chdir=infra apply', expect: 'ask' },
  { note: 'state rm', spec: 'terraform state rm aws_instance.web', expect: 'ask' },
  { note: 'tofu', spec: 'tofu apply', expect: 'ask' },
  { note: 'terragrunt run-all', spec: 'terragrunt run-all destroy', expect: 'ask' },
  { note: 'near miss: plan', spec: 'terraform plan -out tf.plan', expect: null },
  { note: 'near miss: init', spec: 'terraform init', expect: null },
  { note: 'near miss: fmt', spec: 'terraform fmt -recursive', expect: null },
  {
    note: "an MCP terraform server's apply told to destroy",
    spec: { tool: 'mcp__terraform__apply', input: { workspace: 'prod', directory: 'infra', destroy: true } },
    expect: 'ask',
  },
  {
    note: "near miss: an MCP terraform server's plan",
    spec: { tool: 'mcp__terraform__plan', input: { directory: 'infra' } },
    expect: null,
  },
]);

policyTable('aws-destructive', [
  {
    note: 'a lifecycle rule set on a bucket',
    spec: 'aws s3api put-bucket-lifecycle-configuration --bucket acme-models --lifecycle-configuration file://purge.json',
    expect: 'ask',
  },
  {
    note: 'near miss: a lifecycle rule read',
    spec: 'aws s3api get-bucket-lifecycle-configuration --bucket acme-models',
    expect: null,
  },
  {
    note: 'a port opened to the whole internet',
    spec: 'aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp --port 8888 --cidr 0.0.0.0/0',
    expect: 'ask',
  },
  {
    note: 'the same in --ip-permissions, for IPv6',
    spec: `aws ec2 authorize-security-group-ingress --group-id sg-0abc --ip-permissions 'IpProtocol=tcp,FromPort=22,ToPort=22,Ipv6Ranges=[{CidrIpv6=::/0}]'`,
    expect: 'ask',
  },
  {
    note: "near miss: a port opened to the office's range",
    spec: 'aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp --port 22 --cidr 203.0.113.0/24',
    expect: null,
  },
  { spec: 'aws s3 rm s3://bucket --recursive', expect: 'ask' },
  { note: 'terminate', spec: 'aws ec2 terminate-instances --instance-ids i-123', expect: 'ask' },
  {
    note: 'profile first',
    spec: 'aws --profile prod rds delete-db-instance --db-instance-identifier x',
    expect: 'ask',
  },
  { note: 'rb', spec: 'aws s3 rb s3://bucket --force', expect: 'ask' },
  { note: 'sync --delete', spec: 'aws s3 sync ./dist s3://site --delete', expect: 'ask' },
  { note: 'near miss: ls', spec: 'aws s3 ls s3://bucket', expect: null },
  { note: 'near miss: describe', spec: 'aws ec2 describe-instances --region eu-west-1', expect: null },
  { note: 'near miss: sts', spec: 'aws sts get-caller-identity', expect: null },
  {
    note: 'batch delete',
    spec: 'aws ecr batch-delete-image --repository-name api --image-ids imageTag=1',
    expect: 'ask',
  },
  {
    note: 'a policy attached',
    spec: 'aws iam attach-user-policy --user-name dev --policy-arn arn:aws:iam::aws:policy/AdministratorAccess',
    expect: 'ask',
  },
  {
    note: 'a snapshot shared with another account',
    spec: 'aws rds modify-db-cluster-snapshot-attribute --db-cluster-snapshot-identifier s --attribute-name restore --values-to-add 999988887777',
    expect: 'ask',
  },
  {
    note: 'replication to another bucket',
    spec: 'aws s3api put-bucket-replication --bucket b --replication-configuration file://r.json',
    expect: 'ask',
  },
  { note: 'near miss: list the policies', spec: 'aws iam list-attached-user-policies --user-name dev', expect: null },
  {
    note: 'near miss: read an attribute',
    spec: 'aws ec2 describe-snapshot-attribute --snapshot-id s --attribute createVolumePermission',
    expect: null,
  },
]);

policyTable('gcloud-destructive', [
  {
    note: "BigQuery's CLI deleting a dataset and its tables",
    spec: 'bq rm -r -f -d acme-prod:analytics',
    expect: 'ask',
  },
  { note: 'near miss: a BigQuery query', spec: "bq query --use_legacy_sql=false 'SELECT 1'", expect: null },
  { spec: 'gcloud compute instances delete vm-1 --zone us-central1-a', expect: 'ask' },
  { note: 'deploy', spec: 'gcloud run deploy api --source .', expect: 'ask' },
  { note: 'project delete', spec: 'gcloud --project x projects delete x', expect: 'ask' },
  { note: 'gsutil rm', spec: 'gsutil rm -r gs://bucket/data', expect: 'ask' },
  { note: 'a bucket opened to everyone', spec: 'gsutil iam ch allUsers:objectViewer gs://exports', expect: 'ask' },
  {
    note: 'a database exported',
    spec: 'gcloud sql export sql db-1 gs://other/db.sql.gz --database=app',
    expect: 'ask',
  },
  { note: 'near miss: read the policy', spec: 'gsutil iam get gs://exports', expect: null },
  { note: 'near miss: list', spec: 'gcloud compute instances list', expect: null },
  { note: 'near miss: config', spec: 'gcloud config get-value project', expect: null },
]);

policyTable('azure-destructive', [
  { spec: 'az group delete --name rg-prod --yes', expect: 'ask' },
  { note: 'vm deallocate', spec: 'az vm deallocate -g rg -n vm1', expect: 'ask' },
  { note: 'deployment create', spec: 'az deployment group create -g rg --template-file main.bicep', expect: 'ask' },
  { note: 'near miss: list', spec: 'az vm list -o table', expect: null },
  { note: 'near miss: show', spec: 'az account show', expect: null },
]);

policyTable('helm-release-change', [
  { spec: 'helm upgrade --install web ./chart -n prod', expect: 'ask' },
  { note: 'uninstall', spec: 'helm uninstall web', expect: 'ask' },
  { note: 'rollback', spec: 'helm rollback web 3', expect: 'ask' },
  { note: 'near miss: template', spec: 'helm template web ./chart', expect: null },
  { note: 'near miss: list', spec: 'helm list -A', expect: null },
  { note: 'near miss: lint', spec: 'helm lint ./chart', expect: null },
  { note: 'near miss: dry run', spec: 'helm upgrade --install web ./chart --dry-run', expect: null },
]);

policyTable('gh-workflow-and-repo', [
  { note: 'an SSH key added to the GitHub account', spec: 'gh ssh-key add /tmp/.k.pub -t build-cache', expect: 'ask' },
  { note: "near miss: the account's SSH keys listed", spec: 'gh ssh-key list', expect: null },
  {
    note: 'a deploy key with write access added to a repository',
    spec: 'gh repo deploy-key add /tmp/mirror.pub --repo acme/monorepo --allow-write --title release-mirror',
    expect: 'ask',
  },
  {
    note: "near miss: a repository's deploy keys listed",
    spec: 'gh repo deploy-key list --repo acme/monorepo',
    expect: null,
  },
  {
    note: 'a gh extension installed from a repository',
    spec: 'gh extension install devtools-mirror/gh-ship',
    expect: 'ask',
  },
  {
    note: 'near miss: a local gh extension, and the list',
    spec: 'gh extension install . && gh extension list',
    expect: null,
  },
  { spec: 'gh workflow run deploy.yml -f env=prod', expect: 'ask' },
  { note: 'rerun', spec: 'gh run rerun 12345', expect: 'ask' },
  { note: 'pr merge', spec: 'gh pr merge 42 --squash', expect: 'ask' },
  { note: 'secret set', spec: 'gh secret set API_KEY < key.txt', expect: 'ask' },
  { note: 'api delete', spec: 'gh api -X DELETE repos/o/r/branches/x/protection', expect: 'ask' },
  { note: 'repo delete is refused', spec: 'gh repo delete o/r --yes', expect: 'deny' },
  { note: 'near miss: pr create', spec: 'gh pr create --fill', expect: null },
  { note: 'near miss: pr view', spec: 'gh pr view 42 --comments', expect: null },
  { note: 'near miss: run list', spec: 'gh run list --limit 5', expect: null },
  { note: 'near miss: api get', spec: 'gh api repos/o/r/pulls', expect: null },
  {
    note: 'a deploy key with write access, POSTed because fields are given',
    spec: 'gh api repos/tallybook/tallybook/keys -f title=ci -f key="$(cat /tmp/k.pub)" -F read_only=false',
    expect: 'ask',
  },
  { note: 'a webhook added', spec: 'gh api -X POST /repos/o/r/hooks --input hook.json', expect: 'ask' },
  { note: 'near miss: an issue opened through the API', spec: 'gh api repos/o/r/issues -f title=flaky', expect: null },
  {
    note: "glab's API making someone an owner",
    spec: 'glab api -X POST projects/acme-corp%2Fplatform/members -f user_id=99881 -f access_level=50',
    expect: 'ask',
  },
  { note: "near miss: glab's API read", spec: 'glab api projects/acme-corp%2Fplatform/pipelines', expect: null },
  { note: 'near miss: glab mr create', spec: 'glab mr create --fill', expect: null },
  {
    note: 'allow pattern',
    spec: 'gh workflow run ci.yml',
    params: { allowPatterns: ['gh workflow run ci.yml'] },
    expect: null,
  },
]);

policyTable('pulumi-update-destroy', [
  { spec: 'pulumi up --yes', expect: 'ask' },
  { note: 'destroy', spec: 'pulumi destroy -s prod', expect: 'ask' },
  { note: 'stack rm', spec: 'pulumi stack rm dev', expect: 'ask' },
  { note: 'near miss: preview', spec: 'pulumi preview', expect: null },
  { note: 'near miss: stack ls', spec: 'pulumi stack ls', expect: null },
]);

policyTable('cdk-deploy-destroy', [
  {
    note: 'every CDK stack destroyed without a prompt',
    spec: 'cd infra/cdk && npx cdk destroy --all --force',
    expect: 'ask',
  },
  { note: 'a CDK for Terraform deploy', spec: 'cdktf deploy web-prod --auto-approve', expect: 'ask' },
  {
    note: 'near miss: a CDK diff and synth',
    spec: 'npx cdk diff AcmeWebStaging && npx cdk synth --quiet',
    expect: null,
  },
]);

policyTable('docker-destructive-cleanup', [
  { spec: 'docker system prune -a --volumes -f', expect: 'ask' },
  { note: 'volume rm', spec: 'docker volume rm pgdata', expect: 'ask' },
  { note: 'compose down -v', spec: 'docker compose down -v', expect: 'ask' },
  { note: 'docker-compose down --volumes', spec: 'docker-compose down --volumes', expect: 'ask' },
  { note: 'near miss: compose down', spec: 'docker compose down', expect: null },
  { note: 'near miss: plain system prune', spec: 'docker system prune -f', expect: null },
  { note: 'near miss: ps', spec: 'docker ps -a', expect: null },
  { note: 'near miss: build', spec: 'docker build -t web .', expect: null },
]);

policyTable('backup-deletion', [
  { note: "Time Machine's local snapshots deleted", spec: 'tmutil deletelocalsnapshots /', expect: 'ask' },
  { note: 'near miss: the snapshots listed', spec: 'tmutil listlocalsnapshots /', expect: null },
  { note: "DVC's remote garbage-collected", spec: 'dvc gc --workspace --cloud --force', expect: 'ask' },
  { note: 'near miss: the local DVC cache only', spec: 'dvc gc --workspace', expect: null },
  {
    note: "MLflow's deleted runs purged",
    spec: 'mlflow gc --backend-store-uri postgresql://mlflow@db.acme.internal/mlflow --experiment-ids 1,2',
    expect: 'ask',
  },
  { note: 'near miss: an MLflow run listed', spec: 'mlflow runs list --experiment-id 1', expect: null },
  { note: 'every snapshot forgotten and pruned', spec: 'restic forget --keep-last 0 --prune', expect: 'ask' },
  {
    note: 'with the repository set before',
    spec: 'export RESTIC_REPOSITORY=s3:s3.amazonaws.com/acme-prod-backups/restic\nrestic snapshots | tail -3\nrestic forget --keep-last 0 --prune',
    expect: 'ask',
  },
  { note: 'borg archives deleted', spec: 'borg delete --glob-archives "*" /srv/backups/repo', expect: 'ask' },
  { note: 'kopia snapshots deleted', spec: 'kopia snapshot delete k1234 --delete', expect: 'ask' },
  {
    note: 'duplicity sets removed',
    spec: 'duplicity remove-older-than 1D --force s3://acme-prod-backups/db',
    expect: 'ask',
  },
  { note: 'rclone purge of a remote folder', spec: 'rclone purge backups:acme-prod/db', expect: 'ask' },
  { note: 'near miss: restic lists snapshots', spec: 'restic -r /srv/restic snapshots', expect: null },
  { note: 'near miss: restic forget, a dry run', spec: 'restic forget --keep-daily 7 --dry-run', expect: null },
  { note: 'near miss: a borg backup made', spec: 'borg create /srv/backups/repo::{now} ~/project', expect: null },
  { note: 'near miss: rclone copies', spec: 'rclone copy ./dist backups:acme-staging/dist', expect: null },
]);
