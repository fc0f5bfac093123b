//! Declarations: enumerations, ranges, abstract types, constants, variables and
//! arrays, and the type expressions they are written with.

use super::{Checker, R, err, real_decl, real_error};
use crate::lang::ast::{self, BinOp, ExprKind, Ident, TypeExpr};
use crate::model::ir::*;
use crate::source::{Diagnostic, Span};

impl Checker<'_> {
    fn size_expr(&self, e: &ast::Expr) -> R<SizeExpr> {
        Ok(match &e.kind {
            ExprKind::Int(v) => SizeExpr::Lit(*v),
            ExprKind::Size => SizeExpr::Size,
            ExprKind::Neg(a) => SizeExpr::Neg(Box::new(self.size_expr(a)?)),
            ExprKind::Bin(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) => {
                let (a, b) = (Box::new(self.size_expr(a)?), Box::new(self.size_expr(b)?));
                match op {
                    BinOp::Add => SizeExpr::Add(a, b),
                    BinOp::Sub => SizeExpr::Sub(a, b),
                    _ => SizeExpr::Mul(a, b),
                }
            }
            _ => {
                return err(
                    e.span,
                    "a range bound must be an integer expression over literals and `N`",
                );
            }
        })
    }

    fn new_range(&mut self, name: String, lo: &ast::Expr, hi: &ast::Expr, span: Span) -> R<Ty> {
        let lo = self.size_expr(lo)?;
        let hi = self.size_expr(hi)?;
        if !lo.uses_size() && !hi.uses_size() && hi.eval(0) < lo.eval(0) {
            return err(span, format!("the range `{name}` is empty"));
        }
        self.ranges.push(RangeType { name, lo, hi, span });
        Ok(Ty::Range(self.ranges.len() - 1))
    }

    pub(super) fn resolve_type(&mut self, t: &TypeExpr) -> R<Ty> {
        match t {
            TypeExpr::Named(id) => match id.name.as_str() {
                "bool" => Ok(Ty::Bool),
                "proc" => Ok(Ty::Proc),
                "real" => Err(real_error(id.span, None)),
                "int" => Ok(Ty::Range(self.int_range(id.span))),
                other => match self.types.get(other) {
                    Some(t) => Ok(*t),
                    None => err(id.span, format!("unknown type `{other}`")),
                },
            },
            TypeExpr::Range(lo, hi, span) => {
                let name = self
                    .src
                    .snippet(*span)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                self.new_range(name, lo, hi, *span)
            }
        }
    }

    /// The range type `int` (created at its first use; its bounds are the window,
    /// fixed once the whole model is known).
    fn int_range(&mut self, span: Span) -> usize {
        if let Some((r, _)) = self.int_type {
            return r;
        }
        self.ranges.push(RangeType {
            name: "int".into(),
            lo: SizeExpr::Lit(0),
            hi: SizeExpr::Lit(0),
            span,
        });
        let r = self.ranges.len() - 1;
        self.int_type = Some((r, span));
        r
    }

    /// Whether `t` is the type `int`.
    pub(super) fn is_int(&self, t: Ty) -> bool {
        matches!((t, self.int_type), (Ty::Range(r), Some((i, _))) if r == i)
    }

    fn check_new_type_name(&self, name: &Ident) -> R<()> {
        if matches!(name.name.as_str(), "bool" | "proc" | "int" | "real")
            || self.types.contains_key(&name.name)
        {
            return err(
                name.span,
                format!("type `{}` is already defined", name.name),
            );
        }
        Ok(())
    }

    fn check_new_upper(&self, name: &Ident) -> R<()> {
        if self.var_names.contains_key(&name.name)
            || self.ctors.contains_key(&name.name)
            || name.name == "True"
            || name.name == "False"
        {
            return err(name.span, format!("`{}` is already defined", name.name));
        }
        Ok(())
    }

    pub(super) fn decl(&mut self, d: &ast::Decl) -> R<()> {
        match d {
            ast::Decl::Enum { name, ctors } => {
                self.check_new_type_name(name)?;
                let id = self.enums.len();
                for (k, c) in ctors.iter().enumerate() {
                    self.check_new_upper(c)?;
                    self.ctors.insert(c.name.clone(), (id, k));
                }
                self.enums.push(EnumType {
                    name: name.name.clone(),
                    ctors: ctors.iter().map(|c| c.name.clone()).collect(),
                });
                self.types.insert(name.name.clone(), Ty::Enum(id));
            }
            ast::Decl::Range { name, lo, hi } => {
                self.check_new_type_name(name)?;
                let t = self.new_range(name.name.clone(), lo, hi, name.span.to(hi.span))?;
                self.types.insert(name.name.clone(), t);
            }
            ast::Decl::Abstract { name } => {
                // Its values d1..dD are fixed once the whole model is known.
                self.check_new_type_name(name)?;
                let id = self.enums.len();
                self.enums.push(EnumType {
                    name: name.name.clone(),
                    ctors: Vec::new(),
                });
                self.types.insert(name.name.clone(), Ty::Enum(id));
                self.abstracts.push((id, name.clone()));
            }
            ast::Decl::Var { name, ty } | ast::Decl::Const { name, ty } => {
                self.check_new_upper(name)?;
                real_decl(name, std::slice::from_ref(ty))?;
                let t = self.resolve_type(ty)?;
                let kind = if matches!(d, ast::Decl::Var { .. }) {
                    VarKind::Global
                } else {
                    VarKind::Const
                };
                self.var_names.insert(name.name.clone(), self.vars.len());
                self.vars.push(Var {
                    name: name.name.clone(),
                    kind,
                    dims: Vec::new(),
                    ty: t,
                    span: name.span,
                });
            }
            ast::Decl::Array { name, index, elem } => {
                self.check_new_upper(name)?;
                real_decl(name, index)?;
                real_decl(name, std::slice::from_ref(elem))?;
                let mut dims = Vec::new();
                for ix in index {
                    let t = self.resolve_type(ix)?;
                    if self.is_int(t) {
                        let at = ix.span();
                        return Err(Diagnostic::error(
                            at,
                            format!(
                                "the array `{}` is indexed by `int`, which is not supported",
                                name.name
                            ),
                        )
                        .with_note("help: index it by a range instead, e.g. `0 .. 7`"));
                    }
                    dims.push(t);
                }
                let t = self.resolve_type(elem)?;
                self.var_names.insert(name.name.clone(), self.vars.len());
                self.vars.push(Var {
                    name: name.name.clone(),
                    kind: VarKind::Array,
                    dims,
                    ty: t,
                    span: name.span,
                });
            }
        }
        Ok(())
    }
}
