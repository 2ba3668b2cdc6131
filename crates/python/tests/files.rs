//! The read-only files a host gives programs (`Runtime::add_file`): read in
//! binary and text, through `gzip` and `csv`, writes kept apart from them,
//! and unknown names raising what CPython raises.

#![allow(clippy::panic)]

use gradscope_python::Runtime;

fn runtime_with_files() -> Runtime {
    let mut rt = Runtime::new();
    rt.add_file("data.csv", b"a,b\n1,2\n3,4\n".to_vec());
    // `gzip.compress(b"x,y\n5,6\n", mtime=0)` from CPython.
    let gz = vec![
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0xd0, 0xa9, 0xe4, 0x32,
        0xd5, 0x31, 0xe3, 0x02, 0x00, 0x70, 0x8d, 0x7c, 0xeb, 0x08, 0x00, 0x00, 0x00,
    ];
    rt.add_file("small.csv.gz", gz);
    rt
}

fn run_ok(rt: &mut Runtime, source: &str) -> String {
    let out = rt.run(source);
    if let Some(err) = out.error {
        panic!("{source}\nraised {}: {}", err.type_name, err.message);
    }
    out.stdout
}

#[test]
fn add_file_reads_binary_and_text() {
    let mut rt = runtime_with_files();
    let out = run_ok(
        &mut rt,
        "print(open('data.csv', 'rb').read())\nwith open('./data.csv') as f:\n    print(f.readline().strip(), f.name)\n",
    );
    assert_eq!(out, "b'a,b\\n1,2\\n3,4\\n'\na,b ./data.csv\n");
}

#[test]
fn add_file_reads_through_gzip_and_csv() {
    let mut rt = runtime_with_files();
    let out = run_ok(
        &mut rt,
        "import csv, gzip\nwith gzip.open('small.csv.gz', 'rt') as f:\n    print(list(csv.reader(f)))\nprint(gzip.open('small.csv.gz').read())\n",
    );
    assert_eq!(out, "[['x', 'y'], ['5', '6']]\nb'x,y\\n5,6\\n'\n");
}

#[test]
fn add_file_unknown_name_is_file_not_found() {
    let mut rt = runtime_with_files();
    let out = rt.run("open('nope.csv')\n");
    let err = out.error.unwrap_or_else(|| panic!("no error"));
    assert_eq!(err.type_name, "FileNotFoundError");
    assert_eq!(
        err.message,
        "[Errno 2] No such file or directory: 'nope.csv'"
    );
}

#[test]
fn add_file_writes_go_to_memory_not_to_the_hosts_bytes() {
    let mut rt = runtime_with_files();
    // A write over a host file is the program's own copy (the host's bytes
    // are the read-only layer under it): later runs of this runtime see it,
    // a new runtime sees the host's file.
    assert_eq!(
        run_ok(
            &mut rt,
            "with open('data.csv', 'a') as f:\n    f.write('5,6\\n')\nprint(open('data.csv').read().split())\n"
        ),
        "['a,b', '1,2', '3,4', '5,6']\n"
    );
    assert_eq!(
        run_ok(&mut rt, "print(len(open('data.csv').read()))\n"),
        "16\n"
    );
    let out = rt.run("import gzip\ngzip.open('out.gz', 'wt')\n");
    assert_eq!(out.error.map(|e| e.type_name).as_deref(), Some("OSError"));
    let mut fresh = runtime_with_files();
    assert_eq!(
        run_ok(&mut fresh, "print(len(open('data.csv').read()))\n"),
        "12\n"
    );
}

#[test]
fn set_default_device_says_why_without_a_gpu() {
    let mut rt = Runtime::new();
    assert_eq!(
        run_ok(
            &mut rt,
            "import torch\ntorch.set_default_device('cpu')\nprint(torch.get_default_device())\n"
        ),
        "cpu\n"
    );
    for device in ["webgpu", "gpu"] {
        let out = rt.run(&format!(
            "import torch\ntorch.set_default_device('{device}')\n"
        ));
        let err = out.error.unwrap_or_else(|| panic!("no error for {device}"));
        assert_eq!(err.type_name, "RuntimeError");
        assert!(
            err.message.starts_with("WebGPU is not available: "),
            "{}",
            err.message
        );
    }
}
