//! The wire: what each request sent and received, byte for byte, for the WARC records.
//!
//! ureq decodes what it receives (chunks joined, gzip and brotli undone) before the
//! fetcher sees it, and it does not say which address it connected to. Two pieces of its
//! connector chain are replaced so that nothing of that is lost:
//!
//! - [`PeerTcpConnector`] opens the TCP connection itself (the resolved addresses in order,
//!   as ureq's own connector does) and notes the address that answered;
//! - [`RecordingConnector`] wraps the last transport of the chain (after TLS, so it sees
//!   the HTTP messages in the clear) and copies every byte written into the request and
//!   every byte read into the response, before ureq parses or decodes anything.
//!
//! - [`CertTlsConnector`] does TLS in place of ureq's own rustls connector (the same
//!   rustls, ring, protocol versions, Mozilla roots and SNI) and notes the certificate
//!   chain the server presented, which ureq's connector keeps to itself.
//!
//! [`RecordingResolver`] keeps the DNS answer of each host. All three write into one
//! [`SharedLog`] that the fetcher empties before each request and takes after its body is
//! read; the fetcher is used from one thread at a time, so one log is one exchange.
//! Through a CONNECT proxy the proxy's own connection is not recorded (its bytes are the
//! tunnel: TLS records, not HTTP) and the peer is the proxy.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, Transport, TransportAdapter,
};

/// One request and its response, as they went over the wire.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exchange {
    /// The URL requested.
    pub url: String,
    /// When the request was sent: unix time in microseconds (UTC).
    pub sent_at_micros: i64,
    /// The request as sent: request line, headers, body (HTTP/1.1, after TLS decryption).
    pub request: Vec<u8>,
    /// The response as received: status line, headers and body with its transfer and
    /// content encodings (chunked stays chunked, gzip stays gzip).
    pub response: Vec<u8>,
    /// The address the connection was made to (through a proxy: the proxy's).
    pub peer: Option<SocketAddr>,
    /// The DNS answers the resolver gave while making the connection: (host, addresses).
    pub dns: Vec<(String, Vec<IpAddr>)>,
    /// Whether the request went through TLS.
    pub tls: bool,
    /// The certificate chain the server presented in the TLS handshake (DER, the server's
    /// own certificate first); empty without TLS.
    pub tls_certificates: Vec<Vec<u8>>,
}

/// The exchange being recorded.
#[derive(Debug, Default)]
pub struct Log {
    pub exchange: Exchange,
    /// The address the last TCP connection opened was made to, for the recorder that
    /// wraps it next.
    connected_to: Option<SocketAddr>,
    /// The chain of the last TLS handshake, for the recorder that wraps it next.
    handshake_chain: Option<Vec<Vec<u8>>>,
}

pub type SharedLog = Arc<Mutex<Log>>;

fn lock(log: &SharedLog) -> std::sync::MutexGuard<'_, Log> {
    // A panic elsewhere while holding the lock leaves a log that is still bytes.
    log.lock().unwrap_or_else(|e| e.into_inner())
}

/// Empties the log for the next request to `url`.
pub fn begin(log: &SharedLog, url: &str) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mut l = lock(log);
    l.exchange = Exchange { url: url.to_string(), sent_at_micros: now.as_micros() as i64, ..Exchange::default() };
}

/// What was recorded since [`begin`].
pub fn take(log: &SharedLog) -> Exchange {
    std::mem::take(&mut lock(log).exchange)
}

/// ureq's resolver, keeping each answer.
#[derive(Debug)]
pub struct RecordingResolver {
    pub inner: DefaultResolver,
    pub log: SharedLog,
}

impl Resolver for RecordingResolver {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let addrs = self.inner.resolve(uri, config, timeout)?;
        let host = uri.host().unwrap_or("").to_string();
        lock(&self.log).exchange.dns.push((host, addrs.iter().map(|a| a.ip()).collect()));
        Ok(addrs)
    }
}

/// Opens TCP connections like ureq's own connector (each resolved address in turn, the
/// first that answers) and notes which address answered.
#[derive(Debug)]
pub struct PeerTcpConnector {
    pub log: SharedLog,
}

impl<In: Transport> Connector<In> for PeerTcpConnector {
    type Out = Either<In, PeerTcp>;

    fn connect(&self, details: &ConnectionDetails, chained: Option<In>) -> Result<Option<Self::Out>, ureq::Error> {
        if chained.is_some() {
            return Ok(chained.map(Either::A));
        }
        let timeout = details.timeout.not_zero().map(|t| *t);
        let mut last_error = None;
        for addr in &details.addrs {
            let attempt = match timeout {
                Some(t) => TcpStream::connect_timeout(addr, t),
                None => TcpStream::connect(addr),
            };
            match attempt {
                Ok(stream) => {
                    if details.config.no_delay() {
                        stream.set_nodelay(true)?;
                    }
                    lock(&self.log).connected_to = Some(*addr);
                    let buffers =
                        LazyBuffers::new(details.config.input_buffer_size(), details.config.output_buffer_size());
                    return Ok(Some(Either::B(PeerTcp { stream, buffers })));
                }
                Err(e) if matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock) => {
                    last_error = Some(ureq::Error::Timeout(details.timeout.reason));
                }
                Err(e) => last_error = Some(e.into()),
            }
        }
        Err(last_error.unwrap_or(ureq::Error::ConnectionFailed))
    }
}

/// A TCP connection opened by [`PeerTcpConnector`].
pub struct PeerTcp {
    stream: TcpStream,
    buffers: LazyBuffers,
}

impl std::fmt::Debug for PeerTcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PeerTcp").field("peer", &self.stream.peer_addr().ok()).finish()
    }
}

fn timed_out(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock)
}

impl Transport for PeerTcp {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        let timeout = timeout.for_write();
        self.stream.set_write_timeout(timeout.not_zero().map(|t| *t))?;
        match self.stream.write_all(&self.buffers.output()[..amount]) {
            Ok(()) => Ok(()),
            Err(e) if timed_out(&e) => Err(ureq::Error::Timeout(timeout.reason)),
            Err(e) => Err(e.into()),
        }
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        let timeout = timeout.for_read();
        self.stream.set_read_timeout(timeout.not_zero().map(|t| *t))?;
        let amount = loop {
            match self.stream.read(self.buffers.input_append_buf()) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) if timed_out(&e) => return Err(ureq::Error::Timeout(timeout.reason)),
                other => break other?,
            }
        };
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        // Open when a read would block: no bytes nobody asked for, no end of stream.
        if self.stream.set_nonblocking(true).is_err() {
            return false;
        }
        let open = matches!(self.stream.read(&mut [0u8]), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
        open && self.stream.set_nonblocking(false).is_ok()
    }
}

/// Wraps the last transport of the chain in a [`Recording`].
#[derive(Debug)]
pub struct RecordingConnector {
    pub log: SharedLog,
    /// Whether the agent goes through a proxy: then a connection whose config has no proxy
    /// is the one to the proxy itself (ureq opens it through the same chain), not recorded.
    pub proxied: bool,
}

impl<In: Transport> Connector<In> for RecordingConnector {
    type Out = Box<dyn Transport>;

    fn connect(&self, details: &ConnectionDetails, chained: Option<In>) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(inner) = chained else { return Ok(None) };
        if self.proxied && details.config.proxy().is_none() {
            return Ok(Some(Box::new(inner)));
        }
        let (peer, certificates) = {
            let mut log = lock(&self.log);
            (log.connected_to.take(), log.handshake_chain.take().unwrap_or_default())
        };
        Ok(Some(Box::new(Recording { inner: Box::new(inner), log: self.log.clone(), peer, certificates })))
    }
}

/// A transport that copies what passes through it into the log.
#[derive(Debug)]
pub struct Recording {
    inner: Box<dyn Transport>,
    log: SharedLog,
    peer: Option<SocketAddr>,
    certificates: Vec<Vec<u8>>,
}

impl Transport for Recording {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.inner.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        let tls = self.inner.is_tls();
        {
            let sent = &self.inner.buffers().output()[..amount];
            let mut log = lock(&self.log);
            log.exchange.request.extend_from_slice(sent);
            log.exchange.peer = self.peer;
            log.exchange.tls = tls;
            log.exchange.tls_certificates = self.certificates.clone();
        }
        self.inner.transmit_output(amount, timeout)
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        // The input buffer holds what is not consumed yet; what the read adds comes after it.
        let before = self.inner.buffers().input().len();
        let progressed = self.inner.await_input(timeout);
        let input = self.inner.buffers().input();
        if input.len() > before {
            lock(&self.log).exchange.response.extend_from_slice(&input[before..]);
        }
        progressed
    }

    fn is_open(&mut self) -> bool {
        self.inner.is_open()
    }

    fn is_tls(&self) -> bool {
        self.inner.is_tls()
    }
}

/// TLS over the chained transport, as ureq's rustls connector does it, keeping the server's
/// certificate chain. `extra_roots` (DER) are trusted beside the Mozilla roots (a company's
/// own authority; tests' self-signed servers).
pub struct CertTlsConnector {
    pub log: SharedLog,
    config: Arc<rustls::ClientConfig>,
}

impl std::fmt::Debug for CertTlsConnector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertTlsConnector").finish()
    }
}

impl CertTlsConnector {
    pub fn new(log: SharedLog, extra_roots: &[Vec<u8>]) -> Result<CertTlsConnector, String> {
        let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        for der in extra_roots {
            roots
                .add(rustls::pki_types::CertificateDer::from(der.clone()))
                .map_err(|e| format!("a trusted certificate of the settings is not usable: {e}"))?;
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_protocol_versions(rustls::ALL_VERSIONS)
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(CertTlsConnector { log, config: Arc::new(config) })
    }
}

impl<In: Transport> Connector<In> for CertTlsConnector {
    type Out = Either<In, CertTls>;

    fn connect(&self, details: &ConnectionDetails, chained: Option<In>) -> Result<Option<Self::Out>, ureq::Error> {
        let Some(transport) = chained else { return Ok(None) };
        if !details.needs_tls() || transport.is_tls() {
            return Ok(Some(Either::A(transport)));
        }
        let host = details.uri.host().unwrap_or("").trim_start_matches('[').trim_end_matches(']');
        let name = rustls::pki_types::ServerName::try_from(host.to_string())
            .map_err(|_| ureq::Error::Tls("invalid DNS name for TLS"))?;
        let mut conn = rustls::ClientConnection::new(self.config.clone(), name)?;
        let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
        sock.set_timeout(details.timeout);
        conn.complete_io(&mut sock)?;
        let chain: Vec<Vec<u8>> =
            conn.peer_certificates().unwrap_or_default().iter().map(|c| c.as_ref().to_vec()).collect();
        lock(&self.log).handshake_chain = Some(chain);
        let buffers = LazyBuffers::new(details.config.input_buffer_size(), details.config.output_buffer_size());
        Ok(Some(Either::B(CertTls { buffers, stream: rustls::StreamOwned { conn, sock } })))
    }
}

/// A TLS connection opened by [`CertTlsConnector`].
pub struct CertTls {
    buffers: LazyBuffers,
    stream: rustls::StreamOwned<rustls::ClientConnection, TransportAdapter>,
}

impl std::fmt::Debug for CertTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertTls").finish()
    }
}

impl Transport for CertTls {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), ureq::Error> {
        self.stream.get_mut().set_timeout(timeout);
        self.stream.write_all(&self.buffers.output()[..amount])?;
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, ureq::Error> {
        self.stream.get_mut().set_timeout(timeout);
        let amount = self.stream.read(self.buffers.input_append_buf())?;
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        self.stream.get_mut().get_mut().is_open()
    }

    fn is_tls(&self) -> bool {
        true
    }
}
