"""The web UI at `/ui`: a static page and script that use the same JSON API as kubectl.

The page holds no data of its own: it signs in through `/auth/login` (or takes an access
key), reads and writes Configs through `/apis/management.platform.sh/v1/configs`, and asks
`SelfSubjectAccessReview` whether it may edit. Every rule (roles, masking, validation,
optimistic concurrency, `disableConfigEndpoint`) is therefore the API's own, enforced by
the server whatever the page shows.
"""
