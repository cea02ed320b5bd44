"""``trickmate serve``: the table app on the local network, for the phones around the table.

The server is cheroot (CherryPy's production WSGI server): a fixed pool of threads,
each live-update stream holding one, so the pool is sized for 200 watching phones and
then some; its built-in TLS adapter serves ``--https`` with a self-signed certificate
made once and kept in the data folder.
"""

from __future__ import annotations

import argparse
import datetime
import ipaddress
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from types import FrameType
from typing import Any

HELP = "start the phone-friendly table app (score keeping, referee, live updates) on the local network"

DEFAULT_PORT = 8000
DEFAULT_THREADS = 400
#: Request line and headers together; cheroot's default is no limit at all. Bodies are
#: limited by the app (MAX_CONTENT_LENGTH), which knows which endpoints take photos.
MAX_HEADER_BYTES = 64 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, for the LAN)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument(
        "--data", metavar="DIR", help="data folder (default: $TRICKMATE_DATA or ~/.local/share/trickmate)"
    )
    parser.add_argument("--https", action="store_true", help="serve HTTPS with a self-signed certificate")
    parser.add_argument(
        "--threads", type=int, default=DEFAULT_THREADS,
        help=f"worker threads; each watching phone holds one (default {DEFAULT_THREADS})",
    )
    parser.add_argument("--quiet", action="store_true", help="do not print the QR code")


def lan_address() -> str:
    """This machine's address on the local network, found without sending any packet.

    connect() on a UDP socket only picks the route and source address; nothing is sent.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = str(sock.getsockname()[0])
            if not ipaddress.ip_address(address).is_loopback and address != "0.0.0.0":
                return address
        except OSError:
            continue
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout.split()
        for address in out:
            if "." in address and not ipaddress.ip_address(address).is_loopback:
                return address
    except (OSError, subprocess.SubprocessError, ValueError):
        pass
    return "127.0.0.1"


def ensure_certificate(folder: Path, address: str) -> tuple[Path, Path]:
    """A self-signed certificate and key in ``folder``, made on first use and then reused."""
    cert_path, key_path = folder / "https-cert.pem", folder / "https-key.pem"
    if cert_path.exists() and key_path.exists():
        return cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "trickmate")])
    alt_names: list[x509.GeneralName] = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
    ]
    if address != "127.0.0.1":
        alt_names.append(x509.IPAddress(ipaddress.ip_address(address)))
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=825))
        .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
        .sign(key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    key_bytes = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    key_path.touch(mode=0o600)
    key_path.write_bytes(key_bytes)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def print_banner(url: str, local_url: str, data: str, show_qr: bool) -> None:
    print(f"trickmate is serving at {url}", file=sys.stderr)
    print(f"  on this computer: {local_url}", file=sys.stderr)
    print(f"  data folder: {data}", file=sys.stderr)
    if show_qr:
        import qrcode

        code = qrcode.QRCode(border=1)
        code.add_data(url)
        code.print_ascii(out=sys.stderr, invert=True)
        print("Scan this with a phone on the same network to open the table app.", file=sys.stderr)
    sys.stderr.flush()


def run(args: Any) -> int:
    from cheroot import wsgi

    from vision.process import prepare_for_scanning
    from web.app import create_app, get_notifier

    prepare_for_scanning()  # the scan page's photos are scanned in this process

    config: dict[str, Any] = {}
    if args.data:
        config["DATA"] = args.data
    scheme = "https" if args.https else "http"
    lan = lan_address() if args.host in ("0.0.0.0", "::", "") else args.host
    public_url = f"{scheme}://{lan}:{args.port}"
    config["PUBLIC_URL"] = public_url
    try:
        app = create_app(config)
    except OSError as error:
        print(f"trickmate serve: cannot open the data folder: {error}", file=sys.stderr)
        return 1

    threads = max(4, args.threads)
    server = wsgi.Server((args.host, args.port), app, numthreads=threads, server_name="trickmate")
    # Short socket timeout: a phone that vanishes mid-request frees its thread quickly.
    server.timeout = 30
    server.shutdown_timeout = 2
    server.max_request_header_size = MAX_HEADER_BYTES
    if args.https:
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        cert, key = ensure_certificate(Path(app.config["DATA"]), lan)
        server.ssl_adapter = BuiltinSSLAdapter(str(cert), str(key))

    notifier = get_notifier(app)

    def stop(signum: int, frame: FrameType | None) -> None:
        # Stop from the main thread (as Ctrl-C does): cheroot's stop() racing its own
        # start-up from another thread can leave a worker waiting forever.
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        server.prepare()
    except OSError as error:
        print(f"trickmate serve: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass  # stopped while the worker threads were starting: stop them below
    else:
        try:
            print_banner(public_url, f"{scheme}://127.0.0.1:{args.port}", app.config["DATA"], not args.quiet)
            server.serve()
        except KeyboardInterrupt:
            pass
    notifier.close()  # ends the live-update streams, so their threads can finish
    server.stop()
    # Every change was committed before it was answered, so nothing is left to save. Exit
    # at once rather than wait for worker threads that a stop during start-up never reached.
    print("trickmate serve: stopped", file=sys.stderr)
    sys.stderr.flush()
    sys.stdout.flush()
    os._exit(0)
