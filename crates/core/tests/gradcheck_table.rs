//! The gradcheck table (`gradscope_core::gradcheck`, printed by
//! `gradscope gradcheck`): every case passes against finite differences,
//! every op variant is reached by some case, a wrong backward fails its
//! row, and the inputs are seeded and clear of kinks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed test should panic

use gradscope_core::gradcheck::{
    Case, FLOAT32_EPS, KINK_MARGIN, Row, SplitMix64, Values, cases, check, real, sample,
    unary_case, unchecked_variants,
};
use gradscope_core::ops::UnaryOp;
use gradscope_core::{DType, Device, Op};

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

every_target! {
    fn every_unary_op_has_a_row() {
        let rows: Vec<Row> = UnaryOp::ALL
            .iter()
            .map(|&op| check(&unary_case(op)))
            .collect();
        for (op, row) in UnaryOp::ALL.iter().zip(&rows) {
            // The row's node is the op of ALL itself, attributes included.
            assert_eq!(row.op, Some(Op::Unary(*op)), "{op:?}: {row:?}");
            assert!(row.passed, "{row:?}");
        }
    }

    fn every_op_variant_has_a_row() {
        let rows: Vec<Row> = cases().iter().map(check).collect();
        assert!(rows.len() >= 115, "only {} rows", rows.len());
        assert_eq!(unchecked_variants(&rows, Device::Cpu), Vec::<&str>::new());
        // A variant that no row reaches is reported.
        let without_pools: Vec<Row> = rows
            .iter()
            .filter(|r| !r.name.starts_with("max_pool2d"))
            .cloned()
            .collect();
        assert_eq!(
            unchecked_variants(&without_pools, Device::Cpu),
            vec!["NnOp::MaxPool2d"]
        );
        // Each row's node is the one its op names, and every row passes.
        for row in &rows {
            let op = row.op.as_ref().unwrap_or_else(|| panic!("{row:?}"));
            assert_eq!(row.node.as_deref(), Some(op.node_name()), "{}", row.name);
            assert!(row.passed, "{row:?}");
        }
    }

    fn a_wrong_backward_fails_its_row() {
        use gradscope_core::autograd::function::apply_function;
        // exp whose backward forgets the factor exp(x): grad instead of grad * exp(x).
        let case = Case::new("exp (broken backward)", vec![real(&[3])], |t| {
            apply_function(
                "BrokenExp",
                t,
                |ctx, inputs| {
                    ctx.save_for_backward(inputs);
                    inputs[0].exp()
                },
                std::rc::Rc::new(|_saved, grad| Ok(vec![Some(grad.clone())])),
            )
        });
        let row = check(&case);
        assert_eq!(row.node.as_deref(), Some("BrokenExpBackward"));
        assert!(!row.passed);
        assert!(row.error.is_none(), "{row:?}");
        assert!(row.max_abs_error > 0.1, "{row:?}");
        // The same call with exp's own backward passes.
        let good = check(&Case::new("exp", vec![real(&[3])], |t| t[0].exp()));
        assert!(good.passed, "{good:?}");
    }

    fn inputs_keep_clear_of_kinks_and_are_seeded() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..1000 {
            let v = sample(&mut rng, &Values::Avoiding(vec![0.0, 1.0]));
            assert!(
                v.abs() >= KINK_MARGIN && (v - 1.0).abs() >= KINK_MARGIN,
                "{v}"
            );
            let exact = sample(&mut rng, &Values::Float32Exact);
            assert_eq!(f64::from(exact as f32), exact);
            assert_eq!(f64::from((exact + FLOAT32_EPS) as f32), exact + FLOAT32_EPS);
        }
        let case = || unary_case(UnaryOp::Abs);
        let a = case().leaves().unwrap()[0].to_vec::<f64>();
        assert_eq!(a, case().leaves().unwrap()[0].to_vec::<f64>());
        assert_eq!(DType::Float64, case().leaves().unwrap()[0].dtype());
    }
}
