//! Share links: the program and its settings in the page address's
//! fragment, `#v1=` then the settings as JSON, deflated (raw DEFLATE,
//! RFC 1951) and written in base64url without padding.
//!
//! The fragment never reaches a server, and a link opens the same page
//! wherever it is hosted. Every part is checked when a link is opened
//! (version, length, base64, DEFLATE, JSON, the lesson's name), so a
//! damaged or hostile link gets a message, never a panic or a blank page.
//!
//! Compression is `miniz_oxide` rather than the browser's
//! `CompressionStream`. Measured in the page's wasm after wasm-opt, it
//! costs 33,301 bytes (15,273 gzipped, about 5% of the page's module). For
//! that, encoding and decoding stay synchronous and pure: tested natively
//! (round trip and every refusal, a deflate bomb included, which
//! `DecompressionStream` has no output limit against), and a link is read
//! before the first render, so the page never shows the saved code first
//! nor saves over it while a promise settles.

use gradscope_trace::protocol::Device;
use serde::{Deserialize, Serialize};

/// The version this page writes, and the only one it reads.
pub const VERSION: &str = "v1";

/// The longest address a link may have, in bytes: long enough for a page
/// of code (deflate shrinks Python about three times), short enough for
/// chat programs and browsers that cut long addresses.
pub const MAX_URL_BYTES: usize = 8 * 1024;

/// The most bytes the JSON may inflate to: a link of [`MAX_URL_BYTES`]
/// cannot honestly hold more, and the cap stops a deflate bomb.
pub const MAX_INFLATED_BYTES: usize = 256 * 1024;

/// What a link carries. A lesson's controls are lines of its program
/// (`ZERO_GRAD = False`), so the code carries them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shared {
    /// The program.
    pub code: String,
    /// The device chosen.
    pub device: Device,
    /// The open lesson's slug, if one was open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<String>,
    /// The memory budget for runs, in MiB, if one was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_mib: Option<u32>,
    /// The extra files beside the program (`model.py`), if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<crate::files::ProgramFile>,
    /// The run pinned when the link was made, to run first and pin, so
    /// the comparison appears when this program runs. Absent from links
    /// made without a pin (and from every link made before pins could
    /// travel), which open as they always did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Box<PinnedProgram>>,
}

/// The pinned run's program, as it ran: its code, device, budget and files
/// (the lesson is the link's own: a pair compares two settings of one
/// lesson's program, or two free programs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinnedProgram {
    /// The program.
    pub code: String,
    /// The device it ran on.
    pub device: Device,
    /// The memory budget it ran with, in MiB, if one was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_mib: Option<u32>,
    /// Its extra files, if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<crate::files::ProgramFile>,
}

/// Why a link could not be made or opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The address would be (or is) longer than [`MAX_URL_BYTES`].
    TooLong { bytes: usize },
    /// Written by another version of the format.
    Version(String),
    /// A character outside base64url, or a length base64 cannot have.
    Base64 { at: usize },
    /// The bytes are not DEFLATE data, or inflate past [`MAX_INFLATED_BYTES`].
    Deflate,
    /// The inflated text is not the settings this page writes.
    Json(String),
    /// The link names a lesson this page does not have.
    Lesson(String),
}

impl std::fmt::Display for ShareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShareError::TooLong { bytes } => write!(
                f,
                "the link is {} KB long, over the {} KB a link may have",
                bytes.div_ceil(1024),
                MAX_URL_BYTES / 1024
            ),
            ShareError::Version(v) => write!(
                f,
                "the link was made by another version of gradscope ({v}); this page reads {VERSION}"
            ),
            ShareError::Base64 { at } => write!(
                f,
                "the link is damaged: character {at} of its data is not base64url (was it cut short or changed?)"
            ),
            ShareError::Deflate => {
                write!(f, "the link is damaged: its data does not decompress")
            }
            ShareError::Json(why) => write!(f, "the link is damaged: {why}"),
            ShareError::Lesson(slug) => {
                write!(f, "the link names a lesson this page does not have: {slug}")
            }
        }
    }
}

impl Shared {
    /// The fragment (`#v1=...`) of a link to these settings, for a page at
    /// `base` (the address without its fragment): refused when the whole
    /// address would pass [`MAX_URL_BYTES`].
    pub fn to_fragment(&self, base: &str) -> Result<String, ShareError> {
        let json = serde_json::to_vec(self).map_err(|e| ShareError::Json(e.to_string()))?;
        let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
        let fragment = format!("#{VERSION}={}", base64url_encode(&deflated));
        let bytes = base.len() + fragment.len();
        if bytes > MAX_URL_BYTES {
            return Err(ShareError::TooLong { bytes });
        }
        Ok(fragment)
    }

    /// The settings in `fragment` (`location.hash`, with or without its
    /// `#`): `None` when it is not a share link at all (empty, or another
    /// use of the fragment), else the settings or why they are refused.
    pub fn from_fragment(fragment: &str) -> Option<Result<Self, ShareError>> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let (version, data) = fragment.split_once('=')?;
        // A fragment like `#section` is not ours; `#v2=...` is, but newer.
        let is_version = version.len() >= 2
            && version.starts_with('v')
            && version[1..].bytes().all(|b| b.is_ascii_digit());
        if !is_version {
            return None;
        }
        Some(Self::decode(version, data, fragment.len() + 1))
    }

    fn decode(version: &str, data: &str, length: usize) -> Result<Self, ShareError> {
        if version != VERSION {
            return Err(ShareError::Version(version.to_string()));
        }
        // The fragment alone past the limit: refused before any work.
        if length > MAX_URL_BYTES {
            return Err(ShareError::TooLong { bytes: length });
        }
        let deflated = base64url_decode(data)?;
        let json =
            miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES)
                .map_err(|_| ShareError::Deflate)?;
        // Only the object this page writes: serde would also take an array.
        if json.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ShareError::Json(
                "its settings are not a JSON object".into(),
            ));
        }
        let shared: Shared =
            serde_json::from_slice(&json).map_err(|e| ShareError::Json(e.to_string()))?;
        if let Some(slug) = &shared.lesson
            && gradscope_lessons::find(slug).is_none()
        {
            return Err(ShareError::Lesson(slug.clone()));
        }
        // The files as the page would let a learner make them (the pinned
        // program's too: they are written into the worker's file system).
        for list in std::iter::once(&shared.files).chain(shared.pinned.iter().map(|p| &p.files)) {
            let mut files = Vec::new();
            for file in list {
                files = crate::files::put(&files, file.clone()).map_err(ShareError::Json)?;
            }
        }
        Ok(shared)
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in base64url (RFC 4648 section 5) without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// Reads base64url without padding, strictly: only the alphabet, no
/// length that base64 cannot produce, and no stray bits in the last
/// character, so one text means one byte string.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, ShareError> {
    let digit = |at: usize, c: u8| -> Result<u32, ShareError> {
        match c {
            b'A'..=b'Z' => Ok(u32::from(c - b'A')),
            b'a'..=b'z' => Ok(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Ok(u32::from(c - b'0') + 52),
            b'-' => Ok(62),
            b'_' => Ok(63),
            _ => Err(ShareError::Base64 { at }),
        }
    };
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 {
        return Err(ShareError::Base64 {
            at: bytes.len() - 1,
        });
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3 + 2);
    for (c, chunk) in bytes.chunks(4).enumerate() {
        let mut n = 0u32;
        for (i, &ch) in chunk.iter().enumerate() {
            n |= digit(4 * c + i, ch)? << (18 - 6 * i);
        }
        let [_, b0, b1, b2] = n.to_be_bytes();
        let kept = chunk.len() - 1;
        out.extend_from_slice(&[b0, b1, b2][..kept]);
        let stray = match kept {
            1 => n & 0xFFFF,
            2 => n & 0xFF,
            _ => 0,
        };
        if stray != 0 {
            return Err(ShareError::Base64 {
                at: 4 * c + chunk.len() - 1,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "http://127.0.0.1:8080/";

    /// A link to `print(1)` on the CPU as the page wrote it before pins
    /// could travel (the `to_fragment` of commit 35bd1d4, unchanged since
    /// but for the new field; miniz stores so short a text uncompressed).
    const OLD_LINK: &str = "#v1=ASQA2_97ImNvZGUiOiJwcmludCgxKVxuIiwiZGV2aWNlIjoiY3B1In0";

    fn shared(code: &str) -> Shared {
        Shared {
            code: code.into(),
            device: Device::WebGpu,
            lesson: Some("forgot-zero-grad".into()),
            budget_mib: Some(64),
            files: Vec::new(),
            pinned: None,
        }
    }

    fn fragment_of(json: &[u8]) -> String {
        let deflated = miniz_oxide::deflate::compress_to_vec(json, 9);
        format!("#v1={}", base64url_encode(&deflated))
    }

    #[test]
    fn share_round_trip() -> Result<(), ShareError> {
        let settings = shared("import torch\nx = torch.ones(2, requires_grad=True)  # é ✓\n");
        let fragment = settings.to_fragment(BASE)?;
        assert!(fragment.starts_with("#v1="));
        assert!(
            fragment[4..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(Shared::from_fragment(&fragment), Some(Ok(settings.clone())));
        // Without the `#`, as some callers hold it.
        assert_eq!(Shared::from_fragment(&fragment[1..]), Some(Ok(settings)));
        let plain = Shared {
            code: String::new(),
            device: Device::Cpu,
            lesson: None,
            budget_mib: None,
            files: Vec::new(),
            pinned: None,
        };
        assert_eq!(
            Shared::from_fragment(&plain.to_fragment(BASE)?),
            Some(Ok(plain))
        );
        // Extra files travel with the code; a link naming a file the page
        // would refuse is refused.
        let file = |name: &str| crate::files::ProgramFile {
            name: name.into(),
            text: "class Net:\n    pass\n".into(),
        };
        let with_files = Shared {
            files: vec![file("model.py"), file("data/x.csv")],
            ..shared("from model import Net\n")
        };
        assert_eq!(
            Shared::from_fragment(&with_files.to_fragment(BASE)?),
            Some(Ok(with_files))
        );
        let hostile = Shared {
            files: vec![file("../etc/passwd")],
            ..shared("")
        };
        assert!(matches!(
            Shared::from_fragment(&hostile.to_fragment(BASE)?),
            Some(Err(ShareError::Json(_)))
        ));
        Ok(())
    }

    #[test]
    fn share_carries_a_pinned_pair() -> Result<(), ShareError> {
        let lesson = gradscope_lessons::find("forgot-zero-grad").map_or("", |l| l.program);
        let pinned = PinnedProgram {
            code: lesson.replace("ZERO_GRAD = False", "ZERO_GRAD = True"),
            device: Device::Cpu,
            budget_mib: Some(32),
            files: vec![crate::files::ProgramFile {
                name: "model.py".into(),
                text: "W = 2\n".into(),
            }],
        };
        let pair = Shared {
            pinned: Some(Box::new(pinned.clone())),
            ..shared(lesson)
        };
        let fragment = pair.to_fragment(BASE)?;
        assert!(fragment.starts_with("#v1="));
        assert_eq!(Shared::from_fragment(&fragment), Some(Ok(pair.clone())));
        // Two near-identical programs cost little more than one: deflate
        // finds the second in the first.
        let single = shared(lesson).to_fragment(BASE)?;
        assert!(
            fragment.len() < single.len() + single.len() / 4,
            "{} bytes for the pair, {} for one",
            fragment.len(),
            single.len()
        );
        // The pinned program's files are checked as the program's are.
        let hostile = Shared {
            pinned: Some(Box::new(PinnedProgram {
                files: vec![crate::files::ProgramFile {
                    name: "../etc/passwd".into(),
                    text: String::new(),
                }],
                ..pinned
            })),
            ..shared("")
        };
        assert!(matches!(
            Shared::from_fragment(&hostile.to_fragment(BASE)?),
            Some(Err(ShareError::Json(_)))
        ));
        // Unknown fields in the pinned program are refused, as at the top.
        let extra = fragment_of(
            br#"{"code":"x","device":"cpu","pinned":{"code":"y","device":"cpu","lesson":"z"}}"#,
        );
        assert!(matches!(
            Shared::from_fragment(&extra),
            Some(Err(ShareError::Json(_)))
        ));
        Ok(())
    }

    #[test]
    fn share_opens_links_made_before_pins_travelled() {
        // The JSON a page wrote before `pinned` existed: every field it had.
        let old = fragment_of(
            br#"{"code":"print(1)\n","device":"webgpu","lesson":"forgot-zero-grad","budget_mib":64}"#,
        );
        assert_eq!(Shared::from_fragment(&old), Some(Ok(shared("print(1)\n"))));
        // And a link without a pin is written as it was: no `pinned` key.
        let json = serde_json::to_string(&shared("x")).unwrap_or_default();
        assert!(!json.contains("pinned"), "{json}");
        // A recorded link made by the page before this change opens too.
        assert_eq!(
            Shared::from_fragment(OLD_LINK).map(|r| r.map(|s| (s.code, s.device, s.pinned))),
            Some(Ok(("print(1)\n".to_string(), Device::Cpu, None)))
        );
    }

    #[test]
    fn share_compresses_code() -> Result<(), ShareError> {
        let code = gradscope_lessons::lessons()
            .iter()
            .map(|l| l.program)
            .max_by_key(|p| p.len())
            .unwrap_or_default();
        let fragment = shared(code).to_fragment(BASE)?;
        // base64 costs 4/3; deflate must more than win that back.
        assert!(
            fragment.len() < code.len(),
            "{} bytes of code made a {}-byte fragment",
            code.len(),
            fragment.len()
        );
        Ok(())
    }

    #[test]
    fn share_refuses_a_link_past_the_limit() {
        // Text that deflate cannot shrink: a pseudo-random digit string.
        let mut x = 12345u64;
        let code: String = (0..12_000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                char::from(b'a' + (x >> 59) as u8)
            })
            .collect();
        match shared(&code).to_fragment(BASE) {
            Err(ShareError::TooLong { bytes }) => {
                assert!(bytes > MAX_URL_BYTES);
                let message = ShareError::TooLong { bytes }.to_string();
                assert!(message.contains("over the 8 KB"), "{message}");
            }
            other => panic!("not refused: {other:?}"),
        }
        // The limit counts the page's own address too.
        let fits = shared("print(1)\n");
        let long_base = format!("{BASE}?{}", "q".repeat(MAX_URL_BYTES));
        assert!(matches!(
            fits.to_fragment(&long_base),
            Err(ShareError::TooLong { .. })
        ));
    }

    #[test]
    fn share_ignores_other_fragments() {
        assert_eq!(Shared::from_fragment(""), None);
        assert_eq!(Shared::from_fragment("#"), None);
        assert_eq!(Shared::from_fragment("#memory"), None);
        assert_eq!(Shared::from_fragment("#x=1"), None);
        assert_eq!(Shared::from_fragment("#v=1"), None);
    }

    #[test]
    fn share_refuses_another_version() {
        assert_eq!(
            Shared::from_fragment("#v2=AAAA"),
            Some(Err(ShareError::Version("v2".into())))
        );
    }

    #[test]
    fn share_refuses_an_oversize_fragment() {
        let fragment = format!("#v1={}", "A".repeat(MAX_URL_BYTES));
        assert!(matches!(
            Shared::from_fragment(&fragment),
            Some(Err(ShareError::TooLong { .. }))
        ));
    }

    #[test]
    fn share_refuses_bad_base64() -> Result<(), ShareError> {
        let good = shared("print(1)\n").to_fragment(BASE)?;
        // `+` and `/` are plain base64, not base64url; `=` padding is not written.
        for (bad, at) in [
            (format!("{}+", &good[..good.len() - 1]), good.len() - 5),
            ("#v1=ab/d".to_string(), 2),
            ("#v1=abcde".to_string(), 4),
            ("#v1=ab==".to_string(), 2),
            ("#v1=ab%20cd".to_string(), 2),
        ] {
            assert_eq!(
                Shared::from_fragment(&bad),
                Some(Err(ShareError::Base64 { at })),
                "{bad}"
            );
        }
        // Stray bits in the last character: `AB` and `AA` would both read as [0].
        assert_eq!(base64url_decode("AA"), Ok(vec![0]));
        assert_eq!(base64url_decode("AB"), Err(ShareError::Base64 { at: 1 }));
        Ok(())
    }

    #[test]
    fn share_base64url_matches_rfc_4648() {
        // RFC 4648 section 10's vectors, unpadded.
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64url_encode(plain.as_bytes()), coded);
            assert_eq!(base64url_decode(coded), Ok(plain.as_bytes().to_vec()));
        }
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url_decode("-_8"), Ok(vec![0xfb, 0xff]));
    }

    #[test]
    fn share_refuses_bad_deflate() {
        let not_deflate = format!("#v1={}", base64url_encode(b"{\"code\":\"x\"}"));
        assert_eq!(
            Shared::from_fragment(&not_deflate),
            Some(Err(ShareError::Deflate))
        );
        // Cut short: a valid start that ends mid-stream.
        let whole = fragment_of(br#"{"code":"print(1)\n","device":"cpu"}"#);
        let cut = &whole[..whole.len() - 6];
        assert!(matches!(
            Shared::from_fragment(cut),
            Some(Err(ShareError::Deflate | ShareError::Base64 { .. }))
        ));
        // A deflate bomb: a small link that inflates past the cap.
        let bomb = fragment_of(&vec![b' '; MAX_INFLATED_BYTES + 1]);
        assert!(bomb.len() < MAX_URL_BYTES);
        assert_eq!(Shared::from_fragment(&bomb), Some(Err(ShareError::Deflate)));
    }

    #[test]
    fn share_refuses_bad_json() {
        for json in [
            &b"not json"[..],
            br#"{"device":"cpu"}"#,
            br#"{"code":"x","device":"tpu"}"#,
            br#"{"code":"x","device":"cpu","budget_mib":-1}"#,
            br#"{"code":"x","device":"cpu","extra":1}"#,
            br#"["x","cpu"]"#,
            &[0xff, 0xfe][..],
        ] {
            let got = Shared::from_fragment(&fragment_of(json));
            assert!(
                matches!(got, Some(Err(ShareError::Json(_)))),
                "{}: {got:?}",
                String::from_utf8_lossy(json)
            );
        }
    }

    #[test]
    fn share_refuses_an_unknown_lesson() {
        let got = Shared::from_fragment(&fragment_of(
            br#"{"code":"x","device":"cpu","lesson":"no-such-lesson"}"#,
        ));
        assert_eq!(got, Some(Err(ShareError::Lesson("no-such-lesson".into()))));
        let message = ShareError::Lesson("no-such-lesson".into()).to_string();
        assert!(message.ends_with("no-such-lesson"));
    }
}
