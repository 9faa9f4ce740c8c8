"""A create of a client makes a local handle, not a server-side object.

`create_storage_client(region)`, imported from another module of the
package and run in a worker thread, hands back what `create_aws_client`
builds: a client (a boto3 client, an SDK wrapper), a handle to a service on
which the request makes nothing. By its name it is no remote create, so a
cancellation while the thread runs leaves nothing behind on the server;
like any other value it is a resource only with evidence (released or kept
somewhere). `create_bucket` of the same module is a remote create by its
name, whose result the cancellation drops.
"""
