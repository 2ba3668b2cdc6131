//! A lost GPU device (here destroyed, as a driver reset or the browser
//! reclaiming it would lose it): the op that meets it gets a clear
//! `DeviceLost` error, never a panic or a hang; tensors from the lost device
//! say so when used; and the next use of `webgpu` opens a new device on
//! which the engine works again.
#![cfg(not(target_arch = "wasm32"))]
// Test support: a failed expectation is a test failure.
#![allow(clippy::expect_used, clippy::panic, clippy::unwrap_used)]

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use gradscope_core::device as engine;
use gradscope_core::{Device, DeviceBackend, Error, Tensor};
use gradscope_wgpu::GpuDevice;

thread_local! {
    /// Every device the opener made, newest last, so the test can lose one.
    static OPENED: RefCell<Vec<Rc<GpuDevice>>> = const { RefCell::new(Vec::new()) };
}

fn opener() -> gradscope_core::Result<Rc<dyn DeviceBackend>> {
    let dev = Rc::new(pollster::block_on(GpuDevice::new())?);
    OPENED.with(|o| o.borrow_mut().push(dev.clone()));
    Ok(dev as Rc<dyn DeviceBackend>)
}

fn is_lost(e: &Error) -> bool {
    matches!(e, Error::DeviceLost { .. })
}

#[test]
fn a_lost_device_errors_clearly_and_a_new_one_opens() {
    if common::device().is_none() {
        return;
    }
    engine::set_gpu_opener(Box::new(opener));
    let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]).unwrap();
    let on_first = x.to_device(Device::WebGpu).unwrap();
    let doubled = on_first.mul(&on_first).unwrap();
    assert_eq!(doubled.to_vec::<f32>(), vec![1.0, 4.0, 9.0]);

    let first = OPENED.with(|o| o.borrow().last().cloned()).unwrap();
    first.destroy();
    assert!(first.lost().is_some());

    // The next GPU op meets the loss: an error that says what happened.
    let err = on_first.mul(&on_first).unwrap_err();
    assert!(is_lost(&err), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with("WebGPU device lost (destroyed)")
            && message.contains("the next use of 'webgpu' opens a new device"),
        "{message}"
    );

    // Re-initialising: a new tensor on `webgpu` opens a new device.
    let y = Tensor::from_vec(vec![4.0f32, 5.0], &[2]).unwrap();
    let on_second = y.to_device(Device::WebGpu).unwrap();
    let summed = on_second.add(&on_second).unwrap().sum().unwrap();
    assert_eq!(summed.to_vec::<f32>(), vec![18.0]);
    assert_eq!(
        OPENED.with(|o| o.borrow().len()),
        2,
        "a second device opened"
    );

    // A tensor from the lost device cannot reach the new one.
    let err = on_first.add(&on_second.sum().unwrap()).unwrap_err();
    assert!(is_lost(&err), "{err:?}");
    assert!(err.to_string().contains("lost earlier"), "{err}");
}
