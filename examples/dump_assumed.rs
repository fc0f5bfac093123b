fn main() {
    let path = std::env::args().nth(1).unwrap();
    let m = nfold::lang::load_file(&path).unwrap();
    let invs = nfold::model::assume::invariants(&m);
    let a = nfold::model::assume::assume(&m, &invs).unwrap();
    print!("{}", nfold::lang::print::model_text(&a));
}
