global using AdminError = Malachite.MalachiteException;
