"""The shape of a vCluster 0.33 config file (``vcluster.yaml``), every section.

Written in a compact notation of our own, one struct a block: a name line, then one indented
line per key (``key type``). Types: ``str``, ``bool``, ``int``, ``any``, ``strbool`` (a boolean
or a string such as ``"auto"``), ``[T]`` a list, ``{T}`` a map with string keys, a struct name,
and ``.. Name`` which inlines that struct's keys. The key names and value types are the facts
of vCluster 0.33.4's config (its Go config types and the platform types they embed); the
``sync`` section is modelled by hand in :mod:`.models`, because it carries patches and their
rules. :mod:`.config_shape` turns this text into strict pydantic models.
"""

from __future__ import annotations

__all__ = ["VCLUSTER_VERSION", "SPEC"]

VCLUSTER_VERSION = "0.33.4"

SPEC = """\
Config
  global any
  exportKubeConfig ExportKubeConfig
  sync Sync
  integrations Integrations
  deploy Deploy
  networking Networking
  policies Policies
  controlPlane ControlPlane
  privateNodes PrivateNodes
  rbac RBAC
  plugins {Plugins}
  experimental Experimental
  telemetry Telemetry
  serviceCIDR str
  pro bool
  plugin {Plugin}
  logging Logging
  sleep Sleep
  snapshots Snapshots
  deletion Deletion
  platform Platform
ExportKubeConfig
  .. ExportKubeConfigProperties
  secret ExportKubeConfigSecretReference
  additionalSecrets [ExportKubeConfigAdditionalSecretReference]
ExportKubeConfigProperties
  context str
  server str
  insecure bool
  serviceAccount ExportKubeConfigServiceAccount
ExportKubeConfigServiceAccount
  name str
  namespace str
  clusterRole str
ExportKubeConfigSecretReference
  name str
  namespace str
ExportKubeConfigAdditionalSecretReference
  .. ExportKubeConfigProperties
  name str
  namespace str
Integrations
  metricsServer MetricsServer
  kubeVirt KubeVirt
  externalSecrets ExternalSecrets
  certManager CertManager
  istio Istio
  netris NetrisIntegration
MetricsServer
  enabled bool
  apiService APIService
  nodes bool
  pods bool
APIService
  service APIServiceService
APIServiceService
  name str
  namespace str
  port int
KubeVirt
  enabled bool
  apiService APIService
  webhook EnableSwitch
  sync KubeVirtSync
EnableSwitch
  enabled bool
KubeVirtSync
  dataVolumes EnableSwitch
  virtualMachineInstanceMigrations EnableSwitch
  virtualMachineInstances EnableSwitch
  virtualMachines EnableSwitch
  virtualMachineClones EnableSwitch
  virtualMachinePools EnableSwitch
ExternalSecrets
  enabled bool
  version str
  webhook EnableSwitch
  sync ExternalSecretsSync
ExternalSecretsSync
  toHost ExternalSecretsSyncToHostConfig
  fromHost ExternalSecretsSyncFromHostConfig
ExternalSecretsSyncToHostConfig
  externalSecrets SelectorConfig
  stores EnableSwitchSelector
SelectorConfig
  selector K8sLabelSelector
K8sLabelSelector
  matchLabels {str}
  matchExpressions [K8sLabelSelectorRequirement]
K8sLabelSelectorRequirement
  key str
  operator str
  values [str]
EnableSwitchSelector
  .. SelectorConfig
  .. EnableSwitch
ExternalSecretsSyncFromHostConfig
  clusterStores EnableSwitchSelector
CertManager
  .. EnableSwitch
  sync CertManagerSync
CertManagerSync
  toHost CertManagerSyncToHost
  fromHost CertManagerSyncFromHost
CertManagerSyncToHost
  certificates EnableSwitch
  issuers EnableSwitch
CertManagerSyncFromHost
  clusterIssuers ClusterIssuersSyncConfig
ClusterIssuersSyncConfig
  .. EnableSwitch
  selector LabelSelector
LabelSelector
  labels {str}
Istio
  .. EnableSwitch
  sync IstioSync
IstioSync
  toHost IstioSyncToHost
IstioSyncToHost
  destinationRules EnableSwitch
  gateways EnableSwitch
  virtualServices EnableSwitch
NetrisIntegration
  enabled bool
  connector str
  kubeVip NetrisKubeVipConfig
NetrisKubeVipConfig
  serverCluster str
  bridge str
  ipRange str
Deploy
  kubeProxy KubeProxy
  metallb Metallb
  cni CNI
  localPathProvisioner LocalPathProvisioner
  ingressNginx IngressNginx
  metricsServer DeployMetricsServer
  volumeSnapshotController VolumeSnapshotController
KubeProxy
  enabled bool
  image str
  imagePullPolicy str
  nodeSelector {str}
  priorityClassName str
  tolerations [any]
  extraEnv [any]
  extraArgs [str]
  config {any}
Metallb
  enabled bool
  controllerImage str
  speakerImage str
  ipAddressPool MetallbIPAddressPool
MetallbIPAddressPool
  addresses [str]
  l2Advertisement bool
CNI
  flannel CNIFlannel
CNIFlannel
  enabled bool
  image str
  initImage str
  imagePullPolicy str
LocalPathProvisioner
  enabled bool
  image str
  imagePullPolicy str
  nodePath str
IngressNginx
  enabled bool
  defaultIngressClass bool
DeployMetricsServer
  enabled bool
VolumeSnapshotController
  enabled bool
Networking
  serviceCIDR str
  podCIDR str
  replicateServices ReplicateServices
  resolveDNS [ResolveDNS]
  advanced NetworkingAdvanced
ReplicateServices
  toHost [ServiceMapping]
  fromHost [ServiceMapping]
ServiceMapping
  from str
  to str
ResolveDNS
  hostname str
  service str
  namespace str
  target ResolveDNSTarget
ResolveDNSTarget
  hostname str
  ip str
  hostService str
  hostNamespace str
  vClusterService str
NetworkingAdvanced
  clusterDomain str
  fallbackHostCluster bool
  proxyKubelets NetworkProxyKubelets
NetworkProxyKubelets
  byHostname bool
  byIP bool
Policies
  networkPolicy NetworkPolicy
  podSecurityStandard str
  resourceQuota ResourceQuota
  limitRange LimitRange
  centralAdmission CentralAdmission
NetworkPolicy
  enabled bool
  .. LabelsAndAnnotations
  fallbackDns str
  controlPlane NetworkPolicyControlPlane
  workload NetworkPolicyWorkload
LabelsAndAnnotations
  annotations {str}
  labels {str}
NetworkPolicyControlPlane
  ingress [NetworkPolicyIngressRule]
  egress [NetworkPolicyEgressRule]
NetworkPolicyIngressRule
  ports [NetworkPolicyPort]
  from [NetworkPolicyPeer]
NetworkPolicyPort
  protocol str
  port any
  endPort int
NetworkPolicyPeer
  podSelector K8sLabelSelector
  namespaceSelector K8sLabelSelector
  ipBlock IPBlock
IPBlock
  cidr str
  except [str]
NetworkPolicyEgressRule
  ports [NetworkPolicyPort]
  to [NetworkPolicyPeer]
NetworkPolicyWorkload
  publicEgress NetworkPolicyWorkloadPublicEgress
  ingress [NetworkPolicyIngressRule]
  egress [NetworkPolicyEgressRule]
NetworkPolicyWorkloadPublicEgress
  enabled bool
  cidr str
  except [str]
ResourceQuota
  enabled strbool
  quota {any}
  scopeSelector {any}
  scopes [str]
  .. LabelsAndAnnotations
LimitRange
  enabled strbool
  default {any}
  defaultRequest {any}
  max {any}
  min {any}
  .. LabelsAndAnnotations
CentralAdmission
  validatingWebhooks [ValidatingWebhookConfiguration]
  mutatingWebhooks [MutatingWebhookConfiguration]
ValidatingWebhookConfiguration
  kind str
  apiVersion str
  metadata ObjectMeta
  webhooks [ValidatingWebhook]
ObjectMeta
  name str
  labels {str}
  annotations {str}
ValidatingWebhook
  name str
  clientConfig ValidatingWebhookClientConfig
  rules [any]
  failurePolicy str
  matchPolicy str
  namespaceSelector any
  objectSelector any
  sideEffects str
  timeoutSeconds int
  admissionReviewVersions [str]
  matchConditions [any]
ValidatingWebhookClientConfig
  url str
  service ValidatingWebhookServiceReference
  caBundle str
ValidatingWebhookServiceReference
  namespace str
  name str
  path str
  port int
MutatingWebhookConfiguration
  kind str
  apiVersion str
  metadata ObjectMeta
  webhooks [MutatingWebhook]
MutatingWebhook
  reinvocationPolicy str
  .. ValidatingWebhook
ControlPlane
  endpoint str
  distro Distro
  standalone Standalone
  backingStore BackingStore
  coredns CoreDNS
  proxy ControlPlaneProxy
  hostPathMapper HostPathMapper
  ingress ControlPlaneIngress
  service ControlPlaneService
  statefulSet ControlPlaneStatefulSet
  serviceMonitor ServiceMonitor
  advanced ControlPlaneAdvanced
Distro
  k8s DistroK8s
DistroK8s
  enabled bool
  version str
  apiServer DistroContainerEnabled
  controllerManager DistroContainerEnabled
  scheduler DistroContainerEnabled
  .. DistroCommon
DistroContainerEnabled
  enabled bool
  command [str]
  extraArgs [str]
DistroCommon
  image Image
  imagePullPolicy str
  env [{any}]
  resources {any}
  securityContext {any}
Image
  registry str
  repository str
  tag str
Standalone
  enabled bool
  dataDir str
  autoNodes StandaloneAutoNodes
  joinNode StandaloneJoinNode
StandaloneAutoNodes
  provider str
  quantity int
  nodeTypeSelector [Requirement]
Requirement
  property str
  operator str
  values [str]
  value str
StandaloneJoinNode
  enabled bool
  .. JoinConfiguration
JoinConfiguration
  preInstallCommands [str]
  preJoinCommands [str]
  postJoinCommands [str]
  containerd ContainerdJoin
  caCertPath str
  skipPhases [str]
  nodeRegistration NodeRegistration
ContainerdJoin
  enabled bool
  registry ContainerdRegistry
  pauseImage str
ContainerdRegistry
  configPath str
  mirrors {ContainerdMirror}
  auth {ContainerdRegistryAuth}
ContainerdMirror
  server str
  caCert [str]
  skipVerify bool
  capabilities [str]
  overridePath bool
  hosts [ContainerdMirrorHost]
ContainerdMirrorHost
  server str
  caCert [str]
  skipVerify bool
  capabilities [str]
  overridePath bool
ContainerdRegistryAuth
  username str
  password str
  identityToken str
  auth str
NodeRegistration
  criSocket str
  kubeletExtraArgs [KubeletExtraArg]
  taints [KubeletJoinTaint]
  ignorePreflightErrors [str]
  imagePullPolicy str
KubeletExtraArg
  name str
  value str
KubeletJoinTaint
  key str
  value str
  effect str
BackingStore
  etcd Etcd
  database Database
Etcd
  embedded EtcdEmbedded
  deploy EtcdDeploy
  external EtcdExternal
EtcdEmbedded
  enabled bool
  migrateFromDeployedEtcd bool
  snapshotCount int
  extraArgs [str]
EtcdDeploy
  enabled bool
  statefulSet EtcdDeployStatefulSet
  service EtcdDeployService
  headlessService EtcdDeployHeadlessService
EtcdDeployStatefulSet
  enabled bool
  enableServiceLinks bool
  image Image
  imagePullPolicy str
  env [{any}]
  extraArgs [str]
  resources Resources
  pods LabelsAndAnnotations
  highAvailability ExternalEtcdHighAvailability
  scheduling ControlPlaneScheduling
  security ControlPlaneSecurity
  persistence ExternalEtcdPersistence
  .. LabelsAndAnnotations
Resources
  limits {any}
  requests {any}
ExternalEtcdHighAvailability
  replicas int
ControlPlaneScheduling
  nodeSelector {any}
  affinity {any}
  tolerations [{any}]
  priorityClassName str
  podManagementPolicy str
  topologySpreadConstraints [any]
ControlPlaneSecurity
  podSecurityContext {any}
  containerSecurityContext {any}
ExternalEtcdPersistence
  volumeClaim ExternalEtcdPersistenceVolumeClaim
  volumeClaimTemplates [{any}]
  addVolumes [{any}]
  addVolumeMounts [VolumeMount]
ExternalEtcdPersistenceVolumeClaim
  enabled bool
  accessModes [str]
  retentionPolicy str
  size str
  storageClass str
VolumeMount
  name str
  readOnly bool
  mountPath str
  subPath str
  mountPropagation str
  subPathExpr str
EtcdDeployService
  enabled bool
  annotations {str}
EtcdDeployHeadlessService
  annotations {str}
EtcdExternal
  enabled bool
  endpoint str
  tls EtcdExternalTLS
EtcdExternalTLS
  caFile str
  certFile str
  keyFile str
Database
  embedded DatabaseKine
  external ExternalDatabaseKine
DatabaseKine
  enabled bool
  dataSource str
  identityProvider str
  keyFile str
  certFile str
  caFile str
  extraArgs [str]
ExternalDatabaseKine
  .. DatabaseKine
  connector str
CoreDNS
  enabled bool
  embedded bool
  security ControlPlaneSecurity
  service CoreDNSService
  deployment CoreDNSDeployment
  overwriteConfig str
  overwriteManifests str
  priorityClassName str
CoreDNSService
  spec {any}
  .. LabelsAndAnnotations
CoreDNSDeployment
  image str
  replicas int
  nodeSelector {str}
  affinity {any}
  tolerations [{any}]
  resources Resources
  pods LabelsAndAnnotations
  .. LabelsAndAnnotations
  topologySpreadConstraints [any]
ControlPlaneProxy
  bindAddress str
  port int
  extraSANs [str]
HostPathMapper
  enabled bool
  central bool
ControlPlaneIngress
  enabled bool
  host str
  pathType str
  spec {any}
  .. LabelsAndAnnotations
ControlPlaneService
  enabled bool
  spec {any}
  kubeletNodePort int
  httpsNodePort int
  .. LabelsAndAnnotations
ControlPlaneStatefulSet
  highAvailability ControlPlaneHighAvailability
  resources Resources
  scheduling ControlPlaneScheduling
  security ControlPlaneSecurity
  probes ControlPlaneProbes
  persistence ControlPlanePersistence
  enableServiceLinks bool
  .. LabelsAndAnnotations
  pods LabelsAndAnnotations
  image Image
  imagePullPolicy str
  workingDir str
  command [str]
  args [str]
  env [{any}]
  dnsPolicy str
  dnsConfig PodDNSConfig
  initContainers [any]
  sidecarContainers [any]
  hostAliases [HostAlias]
ControlPlaneHighAvailability
  replicas int
  leaseDuration int
  renewDeadline int
  retryPeriod int
ControlPlaneProbes
  livenessProbe LivenessProbe
  readinessProbe ReadinessProbe
  startupProbe StartupProbe
LivenessProbe
  .. EnableSwitch
  failureThreshold int
  initialDelaySeconds int
  timeoutSeconds int
  periodSeconds int
ReadinessProbe
  .. EnableSwitch
  failureThreshold int
  timeoutSeconds int
  periodSeconds int
StartupProbe
  .. EnableSwitch
  failureThreshold int
  timeoutSeconds int
  periodSeconds int
ControlPlanePersistence
  volumeClaim VolumeClaim
  volumeClaimTemplates [{any}]
  dataVolume [{any}]
  binariesVolume [{any}]
  addVolumes [{any}]
  addVolumeMounts [VolumeMount]
VolumeClaim
  enabled strbool
  accessModes [str]
  retentionPolicy str
  size str
  storageClass str
PodDNSConfig
  nameservers [str]
  searches [str]
  options [PodDNSConfigOption]
PodDNSConfigOption
  name str
  value str
HostAlias
  ip str
  hostnames [str]
ServiceMonitor
  enabled bool
  labels {str}
  annotations {str}
ControlPlaneAdvanced
  defaultImageRegistry str
  virtualScheduler EnableSwitch
  serviceAccount ControlPlaneServiceAccount
  workloadServiceAccount ControlPlaneWorkloadServiceAccount
  headlessService ControlPlaneHeadlessService
  konnectivity Konnectivity
  registry Registry
  cloudControllerManager CloudControllerManager
  globalMetadata ControlPlaneGlobalMetadata
  kubeVip KubeVip
  podDisruptionBudget PodDisruptionBudget
ControlPlaneServiceAccount
  enabled bool
  name str
  imagePullSecrets [ImagePullSecretName]
  annotations {str}
  labels {str}
ImagePullSecretName
  name str
ControlPlaneWorkloadServiceAccount
  enabled bool
  name str
  imagePullSecrets [ImagePullSecretName]
  annotations {str}
  labels {str}
ControlPlaneHeadlessService
  annotations {str}
  labels {str}
Konnectivity
  server KonnectivityServer
  agent KonnectivityAgent
KonnectivityServer
  enabled bool
  extraArgs [str]
KonnectivityAgent
  enabled bool
  replicas int
  image str
  imagePullPolicy str
  nodeSelector {str}
  priorityClassName str
  tolerations [any]
  extraEnv [any]
  extraArgs [str]
Registry
  enabled bool
  anonymousPull bool
  config any
CloudControllerManager
  enabled bool
ControlPlaneGlobalMetadata
  annotations {str}
KubeVip
  enabled bool
  interface str
  gateway str
PodDisruptionBudget
  enabled bool
  minAvailable any
  maxUnavailable any
  unhealthyPodEvictionPolicy str
PrivateNodes
  enabled bool
  kubelet Kubelet
  autoUpgrade AutoUpgrade
  joinNode JoinConfiguration
  autoNodes [PrivateNodesAutoNodes]
  vpn PrivateNodesVPN
Kubelet
  config {any}
AutoUpgrade
  enabled bool
  image str
  imagePullPolicy str
  nodeSelector {str}
  binariesPath str
  cniBinariesPath str
  concurrency int
PrivateNodesAutoNodes
  provider str
  properties {str}
  static [StaticNodePool]
  dynamic [DynamicNodePool]
StaticNodePool
  name str
  nodeTypeSelector [Requirement]
  taints [KubeletJoinTaint]
  nodeLabels {str}
  terminationGracePeriod str
  quantity int
DynamicNodePool
  name str
  nodeTypeSelector [Requirement]
  taints [KubeletJoinTaint]
  nodeLabels {str}
  limits {str}
  disruption DynamicNodePoolDisruption
  terminationGracePeriod str
  expireAfter str
  weight int
DynamicNodePoolDisruption
  consolidateAfter str
  consolidationPolicy str
  budgets [DynamicNodePoolDisruptionBudget]
DynamicNodePoolDisruptionBudget
  nodes str
  schedule str
  duration str
PrivateNodesVPN
  enabled bool
  nodeToNode PrivateNodesVPNNodeToNode
PrivateNodesVPNNodeToNode
  enabled bool
RBAC
  role RBACRole
  clusterRole RBACClusterRole
  enableVolumeSnapshotRules EnableAutoSwitch
RBACRole
  enabled bool
  extraRules [{any}]
  overwriteRules [{any}]
RBACClusterRole
  enabled strbool
  extraRules [{any}]
  overwriteRules [{any}]
EnableAutoSwitch
  enabled strbool
Plugins
  name str
  image str
  imagePullPolicy str
  config {any}
  rbac PluginsRBAC
  command [str]
  args [str]
  securityContext {any}
  resources {any}
  volumeMounts [any]
PluginsRBAC
  role PluginsExtraRules
  clusterRole PluginsExtraRules
PluginsExtraRules
  extraRules [RBACPolicyRule]
RBACPolicyRule
  verbs [str]
  apiGroups [str]
  resources [str]
  resourceNames [str]
  nonResourceURLs [str]
Experimental
  deploy ExperimentalDeploy
  syncSettings ExperimentalSyncSettings
  virtualClusterKubeConfig VirtualClusterKubeConfig
  denyProxyRequests [DenyRule]
  proxy Proxy
  docker ExperimentalDocker
ExperimentalDeploy
  host ExperimentalDeployHost
  vcluster ExperimentalDeployVCluster
ExperimentalDeployHost
  manifests str
  manifestsTemplate str
ExperimentalDeployVCluster
  manifests str
  manifestsTemplate str
  helm [ExperimentalDeployHelm]
ExperimentalDeployHelm
  chart ExperimentalDeployHelmChart
  release ExperimentalDeployHelmRelease
  values str
  timeout str
  bundle str
ExperimentalDeployHelmChart
  name str
  repo str
  insecure bool
  version str
  username str
  password str
ExperimentalDeployHelmRelease
  name str
  namespace str
ExperimentalSyncSettings
  setOwner bool
  hostMetricsBindAddress str
  virtualMetricsBindAddress str
VirtualClusterKubeConfig
  kubeConfig str
  serverCAKey str
  serverCACert str
  clientCACert str
  clientCAKey str
  requestHeaderCACert str
DenyRule
  name str
  namespaces [str]
  rules [RuleWithVerbs]
  excludedUsers [str]
RuleWithVerbs
  apiGroups [str]
  apiVersions [str]
  resources [str]
  scope str
  operations [str]
Proxy
  customResources {CustomResourceProxy}
CustomResourceProxy
  enabled bool
  targetVirtualCluster VirtualClusterRef
  accessResources str
VirtualClusterRef
  name str
  project str
ExperimentalDocker
  .. ExperimentalDockerContainer
  enabled bool
  network str
  nodes [ExperimentalDockerNode]
  registryProxy EnableSwitch
  loadBalancer ExperimentalDockerLoadBalancer
ExperimentalDockerContainer
  image str
  ports [str]
  volumes [str]
  env [str]
  args [str]
ExperimentalDockerNode
  .. ExperimentalDockerContainer
  name str
ExperimentalDockerLoadBalancer
  .. EnableSwitch
  forwardPorts bool
Telemetry
  enabled bool
  instanceCreator str
  machineID str
  platformUserID str
  platformInstanceID str
Plugin
  .. Plugins
  version str
  env [any]
  envFrom [any]
  lifecycle {any}
  livenessProbe {any}
  readinessProbe {any}
  startupProbe {any}
  workingDir str
  optional bool
Logging
  encoding str
Sleep
  auto SleepAuto
SleepAuto
  afterInactivity str
  schedule str
  exclude SleepAutoExclusion
  wakeup SleepAutoWakeup
  timezone str
SleepAutoExclusion
  selector LabelSelector
SleepAutoWakeup
  schedule str
Snapshots
  auto SnapshotsAuto
SnapshotsAuto
  schedule str
  timezone str
  retention SnapshotRetention
  storage SnapshotStorage
  volumes SnapshotVolumes
SnapshotRetention
  period int
  maxSnapshots int
SnapshotStorage
  type str
  s3 SnapshotStorageS3
  oci SnapshotStorageOCI
  container SnapshotStorageContainer
  azure SnapshotStorageAzure
SnapshotStorageS3
  url str
  credential SnapshotSecretCredential
SnapshotSecretCredential
  secretName str
  secretNamespace str
SnapshotStorageOCI
  repository str
  credential SnapshotSecretCredential
  username str
  password str
SnapshotStorageContainer
  path str
  volume SnapshotStorageContainerVolume
SnapshotStorageContainerVolume
  name str
  path str
SnapshotStorageAzure
  blobUrl str
  credential SnapshotSecretCredential
SnapshotVolumes
  enabled bool
Deletion
  prevent bool
  auto DeletionAuto
DeletionAuto
  afterInactivity str
Platform
  apiKey PlatformAPIKey
  project str
PlatformAPIKey
  secretName str
  namespace str
  createRBAC bool
"""
